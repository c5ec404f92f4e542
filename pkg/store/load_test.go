package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// savedRun creates a finished run whose two steps printed out1 and out2,
// and whose result holds them as vars.
func savedRun(t *testing.T, s *Store, id, out1, out2 string) *record.Result {
	t.Helper()
	r, err := s.Create(Record{RunID: id, Name: "c"}, []byte("name: c\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i, out := range []string{out1, out2} {
		id := []string{"one", "two"}[i]
		rec := record.StepRecord{Result: record.StepResult{ID: id, Status: record.StepSucceeded, Attempts: 1}, Output: &record.SavedValue{Text: out}}
		if err := r.StepFinished(rec); err != nil {
			t.Fatal(err)
		}
	}
	res := &record.Result{RunID: id, Name: "c", Status: record.Failed, Output: nil, Error: "boom",
		Vars:  map[string]any{"a": out1, "b": out2, "n": map[string]any{"k": []any{1.0, "x"}}},
		Steps: []record.StepResult{{ID: "one", Status: record.StepSucceeded, Attempts: 1}, {ID: "two", Status: record.StepSucceeded, Attempts: 1}}}
	res.KeepBytes()
	if err := r.Finish(res); err != nil {
		t.Fatal(err)
	}
	r.Close()
	return res
}

// Each reader takes the values it needs and no more: a resume the steps'
// outputs (to restore them), Load the result's (what -o json prints),
// Summary neither. Outputs longer than any read buffer, and bytes that
// are not UTF-8, come back exact.
func TestLoadReadsTheValuesItsReaderNeeds(t *testing.T) {
	s := Open(t.TempDir())
	const id = "20260101-000000-000-ffffff"
	out1 := strings.Repeat("line \"quoted\" <tag>\n", 100_000) // 2 MB on one journal line
	out2 := "caf\xe9"
	want := savedRun(t, s, id, out1, out2)

	r, resumed, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if resumed.Steps["one"].Output.Text != out1 || resumed.Steps["two"].Output.Text != out2 {
		t.Error("a resume did not get the outputs back byte for byte")
	}
	if resumed.Result == nil || resumed.Result.Vars != nil {
		t.Errorf("a resume of a failed run read the result's vars: %v", resumed.Result)
	}

	loaded, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Steps["one"].Output.Text != "" || loaded.Steps["one"].Result.Status != record.StepSucceeded {
		t.Errorf("Load read the journal's outputs: %+v", loaded.Steps["one"].Result)
	}
	if !reflect.DeepEqual(roundTrip(t, loaded.Result), roundTrip(t, want)) {
		t.Errorf("Load's result differs from the one saved")
	}

	summary, err := s.Summary(id)
	if err != nil {
		t.Fatal(err)
	}
	if summary.Result == nil || summary.Result.Vars != nil || summary.Result.Output != nil || len(summary.Result.Steps) != 2 || summary.Result.Error != "boom" {
		t.Errorf("summary result %+v", summary.Result)
	}
	if summary.Steps["two"].Output.Text != "" || !summary.Steps["two"].Reusable() {
		t.Errorf("summary step %+v", summary.Steps["two"])
	}
}

// roundTrip is v as its JSON reads back, to compare results whatever
// their Go types (a decoded number is a float64).
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// A resume of a run that already succeeded reads its result whole (it
// prints it), not the journal's outputs.
func TestResumeOfASucceededRunReadsItsResult(t *testing.T) {
	s := Open(t.TempDir())
	const id = "20260101-000000-000-a1a1a1"
	r, _ := s.Create(Record{RunID: id}, nil)
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "a", Status: record.StepSucceeded}, Output: &record.SavedValue{Text: "out"}})
	r.Finish(&record.Result{RunID: id, Status: record.Succeeded, Output: "out", Vars: map[string]any{"a": "out"}})
	r.Close()
	r, sv, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if sv.Result.Output != "out" || sv.Result.Vars["a"] != "out" || sv.Steps["a"].Output.Text != "" {
		t.Errorf("result %+v, step %+v", sv.Result, sv.Steps["a"].Output)
	}
}

// A line of the log that does not parse is corruption, unless it is a
// last line cut short (a crash in the middle of a write).
func TestCorruptLineInTheMiddleOfTheLog(t *testing.T) {
	s := Open(t.TempDir())
	const id = "20260101-000000-000-b2b2b2"
	r, _ := s.Create(Record{RunID: id}, nil)
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "a", Status: record.StepSucceeded}})
	r.Close()
	log := filepath.Join(s.Dir(), "runs", id, "events.jsonl")
	data, _ := os.ReadFile(log)
	os.WriteFile(log, append([]byte("{\"v\":1,\"type\":\"step.sav\n"), data...), 0o600)
	var corrupt *CorruptError
	if _, err := s.Load(id); !errors.As(err, &corrupt) || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("error %v, want the log's line 1 named", err)
	}
}

// Reading a saved run takes memory for the values its reader keeps, and
// about one output more: never the log's or the result's whole text.
func TestReadingASavedRunAllocatesWhatItKeeps(t *testing.T) {
	s := Open(t.TempDir())
	const id = "20260101-000000-000-c3c3c3"
	const n, size = 64, 128 << 10
	r, _ := s.Create(Record{RunID: id}, nil)
	vars := map[string]any{}
	for i := range n {
		out := strings.Repeat(fmt.Sprint(i%10), size)
		name := fmt.Sprint("s", i)
		r.StepFinished(record.StepRecord{Result: record.StepResult{ID: name, Status: record.StepSucceeded}, Output: &record.SavedValue{Text: out}})
		vars[name] = out
	}
	r.Finish(&record.Result{RunID: id, Status: record.Failed, Vars: vars})
	r.Close()
	total := uint64(n * size)
	for _, c := range []struct {
		name  string
		read  func() error
		limit uint64
	}{
		{"Summary", func() error { _, err := s.Summary(id); return err }, total / 2},
		{"Load", func() error { _, err := s.Load(id); return err }, total * 3 / 2},
		{"Resume", func() error {
			r, _, err := s.Resume(id)
			if err == nil {
				r.Close()
			}
			return err
		}, total * 3 / 2},
	} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		if err := c.read(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		got := m1.TotalAlloc - m0.TotalAlloc
		if got > c.limit {
			t.Errorf("%s of a run with %d bytes of outputs allocated %d bytes (at most %d)", c.name, total, got, c.limit)
		}
	}
}
