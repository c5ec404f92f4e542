package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// scriptedEngine is an Engine that runs nothing: it saves one step, emits
// one event and returns what it was told to.
type scriptedEngine struct {
	refuse error
	status record.Status
	seen   run.Request
}

var _ run.Engine = (*scriptedEngine)(nil)

func (e *scriptedEngine) Run(_ context.Context, req run.Request) (*record.Result, error) {
	e.seen = req
	if e.refuse != nil {
		return nil, e.refuse
	}
	if req.Journal == nil { // an unsaved run
		return &record.Result{Status: e.status}, nil
	}
	req.Events.Emit(event.Event{Type: event.RunStarted, RunID: req.RunID})
	if err := req.Journal.StepFinished(record.StepRecord{Result: record.StepResult{ID: "s", Status: record.StepSucceeded, Attempts: 1}}); err != nil {
		return nil, err
	}
	return &record.Result{RunID: req.RunID, Status: e.status}, nil
}

func (e *scriptedEngine) Plan(run.Request) ([]record.PlannedStep, error) { return nil, nil }
func (e *scriptedEngine) CheckModels(*chain.Chain) []error               { return nil }

func sessionChain(t *testing.T) *chain.Chain {
	t.Helper()
	l, err := chain.Parse("c.yaml", []byte("name: c\ninputs:\n  - name: who\n  - {name: token, secret: true}\nsteps:\n  - {id: s, type: cli, command: echo}\n"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Chain
}

func TestSessionDrivesASavedRun(t *testing.T) {
	s := Open(t.TempDir())
	c := sessionChain(t)
	ss, err := s.Start(c, map[string]string{"who": "me", "token": "s3cret"}, true)
	if err != nil {
		t.Fatal(err)
	}
	e := &scriptedEngine{status: record.Succeeded}
	var seen event.Recorder
	res, err := ss.Drive(context.Background(), e, run.Request{Chain: c, Events: &seen})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
	if e.seen.RunID != ss.ID() || e.seen.Journal == nil || !strings.HasPrefix(e.seen.OutputDir, s.Dir()) {
		t.Errorf("the engine was not given the saved run: %+v", e.seen)
	}
	if len(seen.Events()) != 1 {
		t.Errorf("the caller's sink got %d events, want 1", len(seen.Events()))
	}
	sv, err := s.Load(ss.ID())
	if err != nil {
		t.Fatal(err)
	}
	if sv.Record.Status != "succeeded" || sv.Result == nil || sv.Steps["s"].Result.Status != record.StepSucceeded {
		t.Fatalf("saved %+v", sv)
	}
	if sv.Record.Inputs["who"] != "me" || sv.Record.Inputs["token"] != "" || len(sv.Record.Secrets) != 1 || !sv.Record.LenientVariables {
		t.Errorf("record %+v", sv.Record)
	}
	// Drive released the run: it can be continued at once
	again, _, err := s.Continue(ss.ID())
	if err != nil {
		t.Fatalf("the run is still held: %v", err)
	}
	again.Close()
}

func TestSessionRefusedBeforeAnythingRan(t *testing.T) {
	s := Open(t.TempDir())
	c := sessionChain(t)
	refusal := &given.InputError{Chain: "c", Msg: "bad"}

	// a new run that was refused leaves nothing behind
	ss, err := s.Start(c, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Drive(context.Background(), &scriptedEngine{refuse: refusal}, run.Request{Chain: c}); !errors.Is(err, refusal) {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "runs", ss.ID())); !os.IsNotExist(err) {
		t.Fatalf("a refused new run was kept: %v", err)
	}

	// a resumed run that was refused is left as it was, and unlocked
	first, err := s.Start(c, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Drive(context.Background(), &scriptedEngine{status: record.Failed}, run.Request{Chain: c}); err != nil {
		t.Fatal(err)
	}
	again, _, err := s.Continue(first.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again.Drive(context.Background(), &scriptedEngine{refuse: refusal}, run.Request{Chain: c}); !errors.Is(err, refusal) {
		t.Fatalf("err %v", err)
	}
	sv, err := s.Load(first.ID())
	if err != nil || sv.Record.Status != "failed" {
		t.Fatalf("a refused resume changed the run: %v %+v", err, sv)
	}
	third, _, err := s.Continue(first.ID())
	if err != nil {
		t.Fatalf("a refused resume kept the lock: %v", err)
	}
	if third.Close() != nil || third.Close() != nil {
		t.Error("Close twice must be harmless")
	}
}

// TestANewRunAppearsWhenDriven: a started session is invisible until it
// is driven, then appears whole with what was set on it; one closed
// without driving leaves nothing; one whose files cannot be written runs
// unsaved, with a warning.
func TestANewRunAppearsWhenDriven(t *testing.T) {
	s := Open(t.TempDir())
	c := sessionChain(t)
	ss, err := s.Start(c, map[string]string{"who": "ada"}, false)
	if err != nil {
		t.Fatal(err)
	}
	ss.SetFlags(map[string][]string{"model": {"m"}})
	if runs, _ := s.List(); len(runs) != 0 {
		t.Fatalf("a run not yet driven is listed: %+v", runs)
	}
	if _, err := ss.Drive(context.Background(), &scriptedEngine{status: record.Succeeded}, run.Request{Chain: c, Dir: "/work/dir"}); err != nil {
		t.Fatal(err)
	}
	sv, err := s.Load(ss.ID())
	if err != nil || sv.Record.Dir != "/work/dir" || sv.Record.Flags["model"][0] != "m" || sv.Record.Inputs["who"] != "ada" || string(sv.Snapshot) != string(c.Source) {
		t.Fatalf("%v %+v", err, sv)
	}

	idle, err := s.Start(c, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	idle.Close()
	if n := leftBehind(t, s); n != 1 {
		t.Errorf("a session closed without driving left %d entries", n-1)
	}

	blocked, err := s.Start(c, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	// a file in the way of the snapshot: the run cannot be written
	os.WriteFile(filepath.Join(blocked.run.dir, "chain.yaml"), nil, 0o600)
	res, err := blocked.Drive(context.Background(), &scriptedEngine{status: record.Succeeded}, run.Request{Chain: c})
	if err != nil || res == nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "not saved") {
		t.Fatalf("%v %+v", err, res)
	}
	if n := leftBehind(t, s); n != 1 {
		t.Errorf("an unsaved run left %d entries", n-1)
	}
}

// leftBehind counts the entries of runs/ and of the directory of runs
// being made.
func leftBehind(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	for _, dir := range []string{"runs", filepath.Join("runs", newDir)} {
		entries, _ := os.ReadDir(filepath.Join(s.Dir(), dir))
		for _, e := range entries {
			if e.Name() != newDir {
				n++
			}
		}
	}
	return n
}
