package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// handlerChain has a step that fails unless the file ok exists in the
// run's directory, and a handler of every kind, each recording what it
// read in a variable.
const handlerChain = `
name: h
inputs: [{name: who, default: ada}]
steps:
  - {id: build, type: cli, run: 'echo built', output_var: built}
  - {id: check, type: cli, run: 'test -f ok && echo checked', depends_on: [build], output_var: checked}
  - {id: ship, type: cli, run: 'echo shipped', depends_on: [check], output_var: shipped}
handlers:
  on_success:
    - {type: cli, run: 'echo "ok {run.status} {run.name} {shipped} {input.who}"', output_var: success_note}
  on_failure:
    id: report
    type: cli
    run: 'echo "{run.status} at {run.failed_step}: {run.error} [{built}] [{shipped}]"'
    output_var: failure_note
  on_cancel: {type: cli, run: 'echo "cancelled {run.status}"', output_var: cancel_note}
  on_exit:
    - {id: always, type: transform, expr: '"exit " + run.status', output_var: exit_note}
    - {id: last, type: cli, run: 'echo "{exit_note} {run.id}"', output_var: last_note}
`

// handlerIDs lists the result's handler steps as handler/id status.
func handlerIDs(res *record.Result) []string {
	var out []string
	for _, h := range res.Handlers {
		out = append(out, h.Handler+"/"+h.ID+" "+string(h.Status))
	}
	return out
}

func TestHandlersOnSuccess(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok"), nil, 0o600)
	rec := &event.Recorder{}
	res, err := New(WithDir(dir), WithEvents(rec)).Run(context.Background(), Request{Chain: load(t, handlerChain), RunID: "r1"})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("run: %v %s %s", err, res.Status, res.Error)
	}
	if got, want := handlerIDs(res), []string{"on_success/on_success succeeded", "on_exit/always succeeded", "on_exit/last succeeded"}; !slices.Equal(got, want) {
		t.Errorf("handlers = %q, want %q", got, want)
	}
	if res.Vars["success_note"] != "ok succeeded h shipped ada" || res.Vars["exit_note"] != "exit succeeded" || res.Vars["last_note"] != "exit succeeded r1" {
		t.Errorf("vars = %v", res.Vars)
	}
	if _, ran := res.Vars["failure_note"]; ran || len(res.Steps) != 3 || len(res.Warnings) > 0 {
		t.Errorf("steps %v, vars %v, warnings %v", res.Steps, res.Vars, res.Warnings)
	}
	// the views see each handler start, and its steps' events say which
	var seen []string
	for _, e := range rec.Events() {
		if e.Type == event.HandlerStarted {
			seen = append(seen, e.Handler+" "+string(e.Status))
		}
		if e.Type == event.StepFinished && e.Step == "always" && e.Handler != "on_exit" {
			t.Errorf("step.finished of a handler step without its handler: %+v", e)
		}
		if e.Type == event.StepFinished && e.Step == "build" && e.Handler != "" {
			t.Errorf("a chain step marked as a handler's: %+v", e)
		}
	}
	if want := []string{"on_success succeeded", "on_exit succeeded"}; !slices.Equal(seen, want) {
		t.Errorf("handler.started events = %q, want %q", seen, want)
	}
}

// TestHandlersOnFailureThenResume: a failed run runs on_failure (which
// reads the failed step, the error, and a step that never ran as "")
// and on_exit; a resume that succeeds runs on_success, not on_failure
// again, and keeps the chain's steps that had finished.
func TestHandlersOnFailureThenResume(t *testing.T) {
	dir := t.TempDir()
	c := load(t, handlerChain)
	j := &memJournal{}
	first, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || first.Status != record.Failed {
		t.Fatalf("first: %v %s", err, first.Status)
	}
	if got, want := handlerIDs(first), []string{"on_failure/report succeeded", "on_exit/always succeeded", "on_exit/last succeeded"}; !slices.Equal(got, want) {
		t.Errorf("handlers = %q, want %q", got, want)
	}
	if note := first.Vars["failure_note"]; note != "failed at check: step check failed: exited with code 1 [built] []" {
		t.Errorf("failure_note = %q", note)
	}
	for _, rec := range j.done {
		if rec.Result.Handler != "" || c.Step(rec.Result.ID).Lifecycle() != "" {
			t.Errorf("a handler step was journaled: %+v", rec.Result)
		}
	}
	os.WriteFile(filepath.Join(dir, "ok"), nil, 0o600)
	second, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j, Resume: savedSteps(j)})
	if err != nil || second.Status != record.Succeeded {
		t.Fatalf("resume: %v %s %s", err, second.Status, second.Error)
	}
	if !step(t, second, "build").Reused {
		t.Error("the resume ran build again")
	}
	if got, want := handlerIDs(second), []string{"on_success/on_success succeeded", "on_exit/always succeeded", "on_exit/last succeeded"}; !slices.Equal(got, want) {
		t.Errorf("resumed handlers = %q, want %q", got, want)
	}
}

// TestHandlerFailure: a handler step that fails is reported (its result,
// a warning) but changes neither the run's status nor its output; the
// rest of its handler is skipped unless it has continue_on_error, and
// on_exit still runs.
func TestHandlerFailure(t *testing.T) {
	res := runChain(t, `
name: h
steps:
  - {id: a, type: cli, run: 'echo done', output_var: out}
output: out
handlers:
  on_success:
    - {id: tolerated, type: cli, run: 'exit 3', continue_on_error: true}
    - {id: notify, type: cli, run: 'echo oops >&2; exit 4'}
    - {id: after, type: cli, run: 'echo never'}
  on_exit: {id: bye, type: cli, run: 'echo bye'}
`, nil)
	if res.Status != record.Succeeded || res.Output != "done" || res.Error != "" {
		t.Fatalf("status %s output %v error %q", res.Status, res.Output, res.Error)
	}
	if got, want := handlerIDs(res), []string{"on_success/tolerated failed", "on_success/notify failed", "on_success/after skipped", "on_exit/bye succeeded"}; !slices.Equal(got, want) {
		t.Errorf("handlers = %q, want %q", got, want)
	}
	if res.Handlers[2].Reason != "not run: on_success step notify failed" || res.Handlers[1].Stderr != "oops" {
		t.Errorf("handlers = %+v", res.Handlers)
	}
	if want := []string{"on_success handler: step tolerated failed: exited with code 3", "on_success handler: step notify failed: exited with code 4: oops"}; !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings = %q, want %q", res.Warnings, want)
	}
}

// TestHandlersOnInterrupt: an interrupted run stops its steps, then runs
// on_cancel and on_exit; its status stays interrupted. A forced stop (a
// second Ctrl-C) stops the handlers too.
func TestHandlersOnInterrupt(t *testing.T) {
	const src = `
name: h
steps:
  - {id: slow, type: cli, run: 'sleep 5'}
handlers:
  on_cancel: {id: clean, type: cli, run: 'sleep 0.2; echo "cleaned {run.status}"', output_var: cleaned}
  on_exit: {id: bye, type: cli, run: 'echo bye', output_var: bye}
`
	ctx, stop, force := interrupt.WithStop(context.Background())
	time.AfterFunc(300*time.Millisecond, stop)
	res, err := New(WithDir(t.TempDir())).Run(ctx, Request{Chain: load(t, src)})
	if err != nil || res.Status != record.Interrupted {
		t.Fatalf("run: %v %s", err, res.Status)
	}
	if got, want := handlerIDs(res), []string{"on_cancel/clean succeeded", "on_exit/bye succeeded"}; !slices.Equal(got, want) {
		t.Errorf("handlers = %q, want %q", got, want)
	}
	if res.Vars["cleaned"] != "cleaned interrupted" {
		t.Errorf("vars = %v", res.Vars)
	}

	ctx, stop, force = interrupt.WithStop(context.Background())
	time.AfterFunc(300*time.Millisecond, stop)
	time.AfterFunc(500*time.Millisecond, force)
	began := time.Now()
	res, _ = New(WithDir(t.TempDir()), WithGrace(100*time.Millisecond)).Run(ctx, Request{Chain: load(t, strings.Replace(src, "sleep 0.2", "sleep 5", 1))})
	if res.Status != record.Interrupted || time.Since(began) > 3*time.Second {
		t.Fatalf("forced: %s after %s", res.Status, time.Since(began))
	}
	if got, want := handlerIDs(res), []string{"on_cancel/clean failed", "on_exit/bye skipped"}; !slices.Equal(got, want) {
		t.Errorf("forced handlers = %q, want %q", got, want)
	}
}

// TestNoHandlersOnPause: a run paused at a gate has not ended: no handler
// runs until a resume ends it.
func TestNoHandlersOnPause(t *testing.T) {
	res := runChain(t, `
name: h
steps:
  - {id: approve, type: gate, prompt: Ship?}
  - {id: ship, type: cli, run: 'echo shipped', depends_on: [approve]}
handlers:
  on_exit: {type: cli, run: 'echo bye'}
`, nil)
	if res.Status != record.Paused || len(res.Handlers) != 0 {
		t.Fatalf("status %s, handlers %v", res.Status, res.Handlers)
	}
}

// TestHandlerCallsAChainAfresh: a chain step in a handler runs its callee
// in full in every attempt that ends, saving nothing a resume would keep
// (or ask to confirm, for a step that is not idempotent).
func TestHandlerCallsAChainAfresh(t *testing.T) {
	callee := load(t, "name: notify\nsteps:\n  - {id: send, type: cli, run: 'echo sent >> sent.txt', idempotent: false}\n")
	c := load(t, `
name: h
steps:
  - {id: check, type: cli, run: 'test -f ok'}
handlers:
  on_exit: {id: tell, type: chain, chain: notify}
`)
	dir := t.TempDir()
	j := &memJournal{}
	e := New(WithDir(dir), WithChains(func(string, string) (*chain.Chain, error) { return callee, nil }))
	first, err := e.Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || first.Status != record.Failed || len(first.Handlers) != 1 || first.Handlers[0].Status != record.StepSucceeded {
		t.Fatalf("first: %v %s %+v", err, first.Status, first.Handlers)
	}
	if len(j.started) != 0 || len(savedSteps(j)) != 1 {
		t.Errorf("journaled: started %v, done %v", j.started, j.done)
	}
	os.WriteFile(filepath.Join(dir, "ok"), nil, 0o600)
	second, err := e.Run(context.Background(), Request{Chain: c, Journal: j, Resume: savedSteps(j), Started: map[string]bool{}})
	if err != nil || second.Status != record.Succeeded || second.Handlers[0].Status != record.StepSucceeded {
		t.Fatalf("resume: %v %s %+v", err, second.Status, second.Handlers)
	}
	if sent, _ := os.ReadFile(filepath.Join(dir, "sent.txt")); string(sent) != "sent\nsent\n" {
		t.Errorf("the callee ran %q", sent)
	}
}
