package store

import (
	"maps"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestInnerStepsLastUntilTheWorkflowMoves: the branches and pipeline
// steps an executor saved, and their begun marks, are a resume's until the
// workflow moves on; a move inside a called workflow drops only that
// workflow's, and an acknowledgment, which moves nothing, drops none.
func TestInnerStepsLastUntilTheWorkflowMoves(t *testing.T) {
	done := func(id string) record.StepRecord {
		return record.StepRecord{Result: record.StepResult{ID: id, Status: record.StepSucceeded}, Output: &record.SavedValue{Text: "ok"}}
	}
	failed := func(id string) record.StepRecord {
		return record.StepRecord{Result: record.StepResult{ID: id, Status: record.StepFailed, Error: "boom"}}
	}
	for _, tc := range []struct {
		name        string
		write       func(r *Run)
		steps, held []string
	}{
		{"a retry keeps them", func(r *Run) {
			r.StepStarted("pay[0]")
			r.StepFinished(done("pay[0]"))
			r.StepStarted("pay[1]")
		}, []string{"pay[0]"}, []string{"pay[1]"}},
		{"a move drops them", func(r *Run) {
			r.StepStarted("pay[0]")
			r.StepFinished(failed("pay[0]"))
			r.StepFinished(done("pay[1][0]"))
			r.Transition(record.TransitionRecord{From: "s", Transition: "pay", To: "t", Step: &record.StepResult{ID: "pay", Status: record.StepSucceeded}})
		}, nil, nil},
		{"an acknowledgment drops none", func(r *Run) {
			r.StepStarted("pay[0]")
			r.StepFinished(done("pay[1]"))
			r.Transition(record.TransitionRecord{From: "s", To: "s", Hook: true, Ack: &chain.Acknowledgment{Hash: "h"}})
		}, []string{"pay[1]"}, []string{"pay[0]"}},
		{"a called workflow's move drops its own only", func(r *Run) {
			r.Transition(record.TransitionRecord{Within: "call", Enter: &record.SubEntry{State: "s", Transition: "call"}, To: "a"})
			r.StepStarted("call/x[0]")
			r.StepFinished(done("call/x[1]"))
			r.StepStarted("pay[0]")
			r.Transition(record.TransitionRecord{Within: "call", From: "a", Transition: "x", To: "b", Step: &record.StepResult{ID: "call/x"}})
			r.StepStarted("call/y[0]")
		}, nil, []string{"call/y[0]", "pay[0]"}},
		{"a called workflow begun anew drops its old ones", func(r *Run) {
			r.StepFinished(done("call/x[1]"))
			r.StepStarted("call/z")
			r.Transition(record.TransitionRecord{Within: "call", Enter: &record.SubEntry{State: "s", Transition: "call"}, To: "a"})
		}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			const id = "20260101-000000-000-aaaaaa"
			r, err := s.Create(Record{RunID: id, Name: "w"}, []byte("name: w\n"))
			if err != nil {
				t.Fatal(err)
			}
			tc.write(r)
			r.Close()
			sv, err := s.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Sorted(maps.Keys(sv.Steps)); !slices.Equal(got, tc.steps) {
				t.Errorf("steps %v, want %v", got, tc.steps)
			}
			if got := slices.Sorted(maps.Keys(sv.Started)); !slices.Equal(got, tc.held) {
				t.Errorf("begun %v, want %v", got, tc.held)
			}
		})
	}
}
