package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// An event log an older chainrun wrote holds a step.log line for every
// line --verbose showed; reading the run passes over them without
// decoding them, and reads every other line as before: a newer version's
// line is still refused, and a line that only mentions step.log is read.
func TestStreamedLinesOfAnOlderLog(t *testing.T) {
	for _, tc := range []struct {
		line string
		skip bool
	}{
		{`{"v":1,"time":"2026-11-28T13:39:08.2Z","run_id":"20261128-133908-228-afd3d0","type":"step.log","step":"out","stream":"stdout","line":"1"}`, true},
		{`{"v":1,"time":"2026-11-28T13:39:08Z","run_id":"r/call","type":"step.log","step":"x","line":"{\"type\":\"step.saved\"}"}`, true},
		{`{"v":1,"time":"2026-11-28T13:39:08Z","run_id":"r","type":"step.saved","step":"step.log","record":{"result":{"id":"step.log"}}}`, false},
		{`{"v":1,"time":"2026-11-28T13:39:08Z","run_id":"r\",\"type\":\"step.log","type":"step.saved","step":"s"}`, false},
		{`{"v":2,"time":"2026-11-28T13:39:08Z","run_id":"r","type":"step.log","step":"out","line":"1"}`, false},
		{`{"v":1,"time":"2026-11-28T13:39:08Z","run_id":"r","type":"step.logged"}`, false},
		{`{"v":1,"time":"2026-11-28T13:39:08Z","run_id":"r","type":"step.streamed","step":"out","line_count":3}`, false},
	} {
		if got := streamedLine([]byte(tc.line)); got != tc.skip {
			t.Errorf("%s: passed over %v, want %v", tc.line, got, tc.skip)
		}
	}
	// a whole run of the older kind: its steps read back, among 20,000 lines
	st := Open(t.TempDir())
	id := "20261128-133908-228-afd3d0"
	r, err := st.Create(Record{RunID: id, Name: "big"}, []byte("name: big\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20000 {
		r.Emit(event.Event{V: 1, Time: time.Now(), RunID: id, Type: event.StepLog, Step: "a", Stream: "stdout", Line: strings.Repeat("7", i%9)})
		if i%5000 == 0 {
			if err := r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "s" + string(rune('a'+i/5000)), Status: record.StepSucceeded, Attempts: 1}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := r.Finish(&record.Result{RunID: id, Status: record.Succeeded}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	sv, err := st.Summary(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sv.Steps) != 4 || sv.Steps["sd"].Result.Status != record.StepSucceeded {
		t.Errorf("read back %d steps: %+v", len(sv.Steps), sv.Steps)
	}
	if _, err := st.Load(id); err != nil {
		t.Fatal(err)
	}
}

// Show reads what runs show prints and nothing else: the result as
// Summary reads it (as Load does with values), a workflow's transitions,
// and no step record of the journal; a run whose process died gets the
// result its journal makes, as Summary gives it.
func TestShowReadsWhatIsShown(t *testing.T) {
	s := Open(t.TempDir())
	const id = "20260101-000000-000-abcdef"
	want := savedRun(t, s, id, strings.Repeat("big output\n", 50_000), "small")
	r, err := s.Create(Record{RunID: "20260101-000000-000-fedcba", Name: "w"}, []byte("name: w\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []record.TransitionRecord{{From: "a", Transition: "go", To: "b"}, {From: "b", Transition: "end", To: "c"}} {
		if err := r.Transition(tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(&record.Result{RunID: "20260101-000000-000-fedcba", Status: record.Succeeded}); err != nil {
		t.Fatal(err)
	}
	r.Close()

	for _, values := range []bool{false, true} {
		shown, err := s.Show(id, values)
		if err != nil {
			t.Fatal(err)
		}
		if len(shown.Steps) != 0 {
			t.Errorf("Show decoded the journal's steps: %v", shown.Steps)
		}
		other, _ := s.Summary(id)
		if values {
			other, _ = s.Load(id)
		}
		if !reflect.DeepEqual(roundTrip(t, shown.Result), roundTrip(t, other.Result)) || shown.Record.Status != other.Record.Status {
			t.Errorf("values %v: Show's result differs from the one Summary or Load reads", values)
		}
		if values && !reflect.DeepEqual(roundTrip(t, shown.Result), roundTrip(t, want)) {
			t.Errorf("Show with values is not the result saved")
		}
	}
	flow, err := s.Show("20260101-000000-000-fedcba", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(flow.Transitions) != 2 || flow.Transitions[1].To != "c" {
		t.Errorf("Show read the transitions %+v", flow.Transitions)
	}

	// a run whose process died mid-run: its result is the journal's
	const dead = "20260101-000000-000-dddddd"
	r, err = s.Create(Record{RunID: dead, Name: "c", Status: event.Running}, []byte("name: c\nsteps:\n  - {id: one, type: cli, command: 'true'}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "one", Status: record.StepSucceeded, Attempts: 1}}); err != nil {
		t.Fatal(err)
	}
	r.Close() // never finished: its lock is free, its record says running
	shown, err := s.Show(dead, false)
	if err != nil {
		t.Fatal(err)
	}
	summary, err := s.Summary(dead)
	if err != nil {
		t.Fatal(err)
	}
	if shown.Record.Status != record.Interrupted || !reflect.DeepEqual(roundTrip(t, shown.Result), roundTrip(t, summary.Result)) {
		t.Errorf("a dead run shows %s %+v, Summary %+v", shown.Record.Status, shown.Result, summary.Result)
	}
}

// A result's steps decode one at a time into the same steps a Result
// decodes: none (null), an empty list, one, and more than a block holds
// (their texts holding brackets, quotes and commas); a steps member that
// is no list is an error.
func TestDecodeSteps(t *testing.T) {
	many := make([]record.StepResult, 6000) // many blocks
	for i := range many {
		many[i] = record.StepResult{ID: "s" + strings.Repeat("x", i%7), Status: record.StepSucceeded, Attempts: i % 3, Stdout: `tail, "quoted" ] }, {`}
	}
	for _, steps := range [][]record.StepResult{nil, {}, {{ID: "one", Status: record.StepFailed, Error: "boom"}}, many} {
		data, err := json.Marshal(map[string]any{"steps": steps})
		if err != nil {
			t.Fatal(err)
		}
		var want struct {
			Steps []record.StepResult `json:"steps"`
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(data[len(`{"steps":`) : len(data)-1]))
		got, err := decodeSteps(dec)
		if err != nil || !reflect.DeepEqual(got, want.Steps) {
			t.Errorf("%d steps: decoded %d (%v), want %d", len(steps), len(got), err, len(want.Steps))
		}
	}
	for _, bad := range []string{`{"id":"x"}`, `"steps"`, `[{"id":"x"},`, `[{"attempts":"two"}]`} {
		if _, err := decodeSteps(json.NewDecoder(strings.NewReader(bad))); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}
