package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

func TestCreateSaveLoad(t *testing.T) {
	s := Open(t.TempDir())
	r, err := s.Create(Record{RunID: "20260101-000000-000-aaaaaa", Name: "c", Inputs: map[string]string{"a": "1"}}, []byte("name: c\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(Record{RunID: "20260101-000000-000-aaaaaa"}, nil); !errors.As(err, new(*LockedError)) {
		t.Fatalf("a second driver of the run was allowed: %v", err)
	}
	rec := record.StepRecord{Result: record.StepResult{ID: "s1", Status: record.StepSucceeded, Attempts: 1}, Output: &record.SavedValue{Text: "out"}}
	if err := r.StepFinished(rec); err != nil {
		t.Fatal(err)
	}
	r.Emit(event.Event{Type: event.RunStarted, RunID: "x"})
	r.Emit(event.Event{Type: event.LLMDelta, Line: "not logged"})
	if err := r.Finish(&record.Result{RunID: "20260101-000000-000-aaaaaa", Status: record.Failed, Error: "boom", DurationMS: 5}); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	sv, err := s.load("20260101-000000-000-aaaaaa", journalValues|resultValues)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Record.Status != "failed" || sv.Record.Error != "boom" || string(sv.Snapshot) != "name: c\n" || sv.Steps["s1"].Output.Text != "out" || sv.Result == nil {
		t.Fatalf("loaded %+v", sv)
	}
	events, _ := os.ReadFile(filepath.Join(s.Dir(), "runs", "20260101-000000-000-aaaaaa", "events.jsonl"))
	if len(splitLines(string(events))) != 2 { // the run.started event and the step.saved record
		t.Errorf("events.jsonl = %q", events)
	}
}

func TestCrashedRunIsInterrupted(t *testing.T) {
	s := Open(t.TempDir())
	r, err := s.Create(Record{RunID: "20260101-000000-000-bbbbbb", Name: "c"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := s.List()
	if recs[0].Status != "running" {
		t.Fatalf("a run whose lock is held is %s", recs[0].Status)
	}
	r.lock.Unlock() // the process died without finishing
	recs, _ = s.List()
	if recs[0].Status != "interrupted" {
		t.Fatalf("a run whose process died is %s", recs[0].Status)
	}
}

func TestListNewestFirstAndCorrupt(t *testing.T) {
	s := Open(t.TempDir())
	for _, id := range []string{"20260101-000000-001-aaaaaa", "20260101-000000-002-aaaaaa"} {
		r, err := s.Create(Record{RunID: id, StartedAt: id[:15]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Finish(&record.Result{Status: record.Succeeded})
		r.Close()
	}
	os.WriteFile(filepath.Join(s.Dir(), "runs", "20260101-000000-001-aaaaaa", "run.json"), []byte("{oops"), 0o644)
	recs, err := s.List()
	if err != nil || len(recs) != 2 || recs[0].RunID != "20260101-000000-002-aaaaaa" {
		t.Fatalf("%+v %v", recs, err)
	}
	if recs[1].Status != "corrupt" {
		t.Errorf("an unreadable run is %q", recs[1].Status)
	}
	if _, err := s.Load("20260101-000000-001-aaaaaa"); !errors.As(err, new(*CorruptError)) {
		t.Errorf("loading a corrupt run: %v", err)
	}
	if _, err := s.Load("../../etc"); !errors.As(err, new(*NotFoundError)) {
		t.Errorf("a path as run id: %v", err)
	}
}

func TestReadOnlyStateDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	if _, err := Open(dir).Create(Record{RunID: "20260101-000000-000-cccccc"}, nil); err == nil {
		t.Fatal("created a run in a read-only directory")
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func TestJournalReplay(t *testing.T) {
	s := Open(t.TempDir())
	id := "20260101-000000-000-dddddd"
	r, err := s.Create(Record{RunID: id}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.StepStarted("ship")
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "build", Status: record.StepFailed}})
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "build", Status: record.StepSucceeded}})
	r.StepStarted("deploy")
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "deploy", Status: record.StepSucceeded}})
	r.Close()
	f, _ := os.OpenFile(filepath.Join(s.Dir(), "runs", id, "events.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte(`{"v":1,"type":"step.saved","record":{"result":{"id":"x","sta`)) // a crash mid-write
	f.Close()
	sv, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Steps["build"].Result.Status != record.StepSucceeded || !sv.Started["ship"] || sv.Started["deploy"] {
		t.Fatalf("replayed %+v started %v", sv.Steps, sv.Started)
	}
	if _, torn := sv.Steps["x"]; torn {
		t.Error("a torn last line was read")
	}
}

func TestTornTailIsTrimmedBeforeAppending(t *testing.T) {
	s := Open(t.TempDir())
	id := "20260101-000000-000-eeeeee"
	r, _ := s.Create(Record{RunID: id}, nil)
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "a", Status: record.StepSucceeded}})
	r.Close()
	log := filepath.Join(s.Dir(), "runs", id, "events.jsonl")
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte(`{"v":1,"type":"step.sav`))
	f.Close()
	r2, _, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	r2.StepFinished(record.StepRecord{Result: record.StepResult{ID: "b", Status: record.StepSucceeded}})
	r2.Close()
	sv, err := s.Load(id)
	if err != nil {
		t.Fatalf("the run became unreadable: %v", err)
	}
	if len(sv.Steps) != 2 {
		t.Fatalf("steps = %v", sv.Steps)
	}
}

// TestFailedWriteIsSticky: once the log could not be written, every later
// save reports it (a step after a lost line must not look saved).
func TestFailedWriteIsSticky(t *testing.T) {
	s := Open(t.TempDir())
	r, err := s.Create(Record{RunID: "20260101-000000-000-cccccc", Name: "c"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec := record.StepRecord{Result: record.StepResult{ID: "s1", Status: record.StepSucceeded}}
	if err := r.StepFinished(rec); err != nil {
		t.Fatal(err)
	}
	r.events.Close() // the disk goes away under the log
	first := r.StepFinished(rec)
	second := r.Transition(record.TransitionRecord{From: "a", Transition: "t", To: "b"})
	if first == nil || second == nil || r.Err() == nil {
		t.Fatalf("errors: %v, %v, %v", first, second, r.Err())
	}
}

// TestDeferredEventsGoWithTheNext: a step's started, attempt and finished
// events wait for the line after them (its process, its saved record) and
// go to the log with it, in order; Err and Close write what still waits.
func TestDeferredEventsGoWithTheNext(t *testing.T) {
	s := Open(t.TempDir())
	id := "20260101-000000-000-ffffff"
	r, err := s.Create(Record{RunID: id}, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(s.Dir(), "runs", id, "events.jsonl")
	types := func() string {
		data, _ := os.ReadFile(log)
		var out []string
		for _, l := range splitLines(string(data)) {
			var e struct{ Type string }
			_ = json.Unmarshal([]byte(l), &e)
			out = append(out, e.Type)
		}
		return strings.Join(out, " ")
	}
	r.Emit(event.Event{Type: event.StepStarted, Step: "a"})
	r.Emit(event.Event{Type: event.StepAttempt, Step: "a", Attempt: 1})
	if got := types(); got != "" {
		t.Fatalf("written before the step's process: %q", got)
	}
	r.Emit(event.Event{Type: event.StepProcess, Step: "a", PID: 7})
	if got := types(); got != "step.started step.attempt step.process" {
		t.Fatalf("after the process: %q", got)
	}
	r.Emit(event.Event{Type: event.StepFinished, Step: "a"})
	if err := r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "a", Status: record.StepSucceeded}}); err != nil {
		t.Fatal(err)
	}
	if got := types(); got != "step.started step.attempt step.process step.finished step.saved" {
		t.Fatalf("after the record: %q", got)
	}
	r.Emit(event.Event{Type: event.StepStarted, Step: "b"})
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	r.Emit(event.Event{Type: event.StepFinished, Step: "b"})
	r.Close()
	if got := types(); got != "step.started step.attempt step.process step.finished step.saved step.started step.finished" {
		t.Fatalf("after Err and Close: %q", got)
	}
}
