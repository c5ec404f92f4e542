package store_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// manySteps saves a run of n steps that succeeded, as a run of n cli
// steps leaves it: five events a step in its log (started, attempt,
// process, finished, saved) and a result of n steps.
func manySteps(b *testing.B, st *store.Store, n int) string {
	id := run.NewRunID(time.Now())
	var src strings.Builder
	src.WriteString("name: many\nsteps:\n")
	for i := range n {
		fmt.Fprintf(&src, "  - {id: s%d, type: cli, command: \"true\"}\n", i)
	}
	r, err := st.Create(store.Record{RunID: id, Name: "many", Status: event.Running}, []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	res := &record.Result{RunID: id, Status: record.Succeeded}
	now := time.Now()
	r.Emit(event.Event{V: 1, Time: now, RunID: id, Type: event.RunStarted, Chain: "many"})
	for i := range n {
		step := fmt.Sprintf("s%d", i)
		for _, e := range []event.Event{
			{Type: event.StepStarted, Kind: "cli"}, {Type: event.StepAttempt, Attempt: 1}, {Type: event.StepProcess, PID: 4000 + i},
			{Type: event.StepFinished, Kind: "cli", Attempt: 1, Status: event.Succeeded, DurationMS: 1},
		} {
			e.V, e.Time, e.RunID, e.Step = 1, now, id, step
			r.Emit(e)
		}
		sr := record.StepResult{ID: step, Status: record.StepSucceeded, Attempts: 1, DurationMS: 1}
		if err := r.StepFinished(record.StepRecord{Result: sr}); err != nil {
			b.Fatal(err)
		}
		res.Steps = append(res.Steps, sr)
	}
	r.Emit(event.Event{V: 1, Time: now, RunID: id, Type: event.RunFinished, Chain: "many", Status: event.Succeeded})
	if err := r.Finish(res); err != nil {
		b.Fatal(err)
	}
	r.Close()
	return id
}

// chattyRun saves a run of one step printing n lines with --verbose.
func chattyRun(b *testing.B, st *store.Store, n int) string {
	l, err := chain.Parse("chatty.yaml", []byte(fmt.Sprintf("name: chatty\nsteps:\n  - {id: out, type: cli, command: seq, args: ['%d']}\n", n)), chain.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ss, err := st.Start(l.Chain, nil, false)
	if err != nil {
		b.Fatal(err)
	}
	engine := run.New(run.WithDir(b.TempDir()), run.WithLogLines(true), run.WithEvents(event.Discard))
	res, err := ss.Drive(context.Background(), engine, run.Request{Chain: l.Chain})
	if err != nil || res.Status != record.Succeeded {
		b.Fatalf("%v %+v", err, res)
	}
	return res.RunID
}

// BenchmarkRunsShow is runs show of a saved run, read (store.Show) and
// printed as its table, without and with -o json: of a
// run of a step that printed a million lines with --verbose, and of a
// run of 10,000 steps. Each must take at most 50 ms.
func BenchmarkRunsShow(b *testing.B) {
	st := store.Open(b.TempDir())
	runs := []struct {
		name, id string
	}{
		{"verbose-1M-lines", chattyRun(b, st, 1000000)},
		{"steps-10k", manySteps(b, st, 10000)},
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				saved, err := st.Show(r.id, false)
				if err != nil {
					b.Fatal(err)
				}
				if err := text.Run(io.Discard, saved, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(r.name+"/json", func(b *testing.B) {
			for b.Loop() {
				saved, err := st.Show(r.id, true)
				if err != nil || saved.Result == nil {
					b.Fatal(err)
				}
				if err := render.PrintJSON(io.Discard, saved.Result); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
