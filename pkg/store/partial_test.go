package store

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

const crashedFlow = `version: "1"
workflows:
  wf:
    initialState: start
    states:
      start:
        transitions:
          build: {target: testing, actor: deterministic, executor: {kind: cli, run: 'echo built'}}
      testing:
        transitions:
          test: {target: deploying, actor: deterministic, executor: {kind: cli, run: 'echo ok'}}
      deploying:
        goal: Ship it
        transitions:
          deploy: {target: done, actor: deterministic, executor: {kind: cli, run: 'sleep 30'}}
      done: {terminal: true}
`

// A resume of a workflow run that was killed in the middle of an
// executor: the journal, not the earlier attempt's result, says where it
// stood and what was running.
func TestCrashedWorkflowShowsTheRunningExecutor(t *testing.T) {
	const id = "20260101-000000-000-cccccc"
	s := Open(t.TempDir())
	r, err := s.Create(Record{RunID: id, Name: "wf", ChainFile: "wf.yaml"}, []byte(crashedFlow))
	if err != nil {
		t.Fatal(err)
	}
	step := func(id string) *record.StepResult {
		return &record.StepResult{ID: id, Status: record.StepSucceeded, Attempts: 1, DurationMS: 3}
	}
	// the first attempt took build, then failed at test
	r.Emit(event.Event{Type: event.RunStarted, RunID: id})
	r.Transition(record.TransitionRecord{From: "start", Transition: "build", To: "testing", Step: step("build"),
		Vars: map[string]record.SavedValue{"build": {Text: "built"}}, Context: map[string]any{"n": 1.0}})
	r.Finish(&record.Result{RunID: id, Status: record.Failed, Error: "transition test failed"})
	// the resume took test and was killed while deploy ran, on its 2nd attempt
	r.Begin()
	r.Emit(event.Event{Type: event.RunStarted, RunID: id})
	r.StepStarted("test[0]") // a branch of test's, done with once test moved on
	r.Transition(record.TransitionRecord{From: "testing", Transition: "test", To: "deploying", Step: step("test"),
		Vars: map[string]record.SavedValue{"test": {Text: "ok"}}, Context: map[string]any{"n": 2.0}})
	r.Emit(event.Event{Type: event.StepStarted, RunID: id, Step: "deploy"})
	r.Emit(event.Event{Type: event.StepAttempt, RunID: id, Step: "deploy", Attempt: 2})
	// two of its branches began, one finished
	r.StepStarted("deploy[0]")
	r.StepStarted("deploy[1]")
	r.StepFinished(record.StepRecord{Result: record.StepResult{ID: "deploy[0]", Status: record.StepSucceeded}, Output: &record.SavedValue{Text: "x"}})
	// a workflow a workflow step runs: its transitions are not the run's
	r.Transition(record.TransitionRecord{Within: "sub", Enter: &record.SubEntry{State: "deploying", Transition: "sub"}, To: "inner"})
	r.Transition(record.TransitionRecord{Within: "sub", From: "inner", Transition: "go", To: "innermost", Context: map[string]any{"n": 9.0}})
	r.Emit(event.Event{Type: event.StepStarted, RunID: id + "/call", Step: "inner"}) // a called chain's
	r.lock.Unlock()                                                                  // the process died

	sv, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	res := sv.Result
	if res == nil || res.WorkflowResult == nil {
		t.Fatalf("no workflow result: %+v", res)
	}
	if res.Status != record.Interrupted || res.State != "deploying" || res.Error == "" {
		t.Errorf("status %s, state %s, error %q", res.Status, res.State, res.Error)
	}
	if len(res.Chain) != 1 || res.Chain[0].Transition != "test" {
		t.Errorf("chain %+v: want the last attempt's transitions, test alone", res.Chain)
	}
	if len(res.Steps) != 2 || res.Steps[0].ID != "test" || res.Steps[1].ID != "deploy" ||
		res.Steps[1].Status != record.StepFailed || res.Steps[1].Attempts != 2 {
		t.Errorf("steps %+v: want test, then deploy failed on its 2nd attempt", res.Steps)
	}
	if len(res.Links) != 1 || res.Links[0].Transition != "deploy" || res.Links[0].Title != "Retry: Deploy" ||
		len(res.Links[0].Reruns) != 1 || res.Links[0].Reruns[0] != "deploy[1]" {
		t.Errorf("links %+v", res.Links)
	}
	if res.Vars["build"] != "built" || res.Vars["test"] != "ok" || res.Context["n"] != 2.0 {
		t.Errorf("vars %v, context %v", res.Vars, res.Context)
	}
	if res.Guidance == nil || res.Guidance.Goal != "Ship it" {
		t.Errorf("guidance %+v", res.Guidance)
	}
}
