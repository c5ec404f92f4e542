package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// dagDriver runs a chain's steps as their dependencies allow: each step
// starts the moment the steps it depends on finish, at most --max-parallel
// at once.
// exec is the execution the DAG driver drives.
func (d *dagDriver) Exec() *Execution { return d.x }

type dagDriver struct {
	x *Execution
	// notStarted are the steps the run ended before.
	notStarted []string
	// stop cancels the steps still running, saying why (a record.StopCause).
	stop context.CancelCauseFunc
}

func (d *dagDriver) Where() string { return "" }

func (d *dagDriver) Drive(ctx context.Context) {
	ctx, d.stop = context.WithCancelCause(ctx)
	defer d.stop(nil)
	if r := d.x.Engine.Remote; r != nil {
		d.notStarted = d.x.Chain.Graph().RunOn(ctx, d.x.Engine.parallel, d.visit, d.waiting, r.Runner(ctx))
		return
	}
	d.notStarted = d.x.Chain.Graph().RunNotify(ctx, d.x.Engine.parallel, d.visit, d.waiting)
}

// waiting tells that a ready step waits for one of the --max-parallel
// slots, so that a display shows it rather than nothing.
func (d *dagDriver) waiting(id string) {
	if rec, ok := d.x.Req.Resume[id]; ok && rec.Reusable() {
		return // kept from the saved run: it will not run
	}
	d.x.Emit(event.Event{Type: event.StepWaiting, Step: id,
		Detail: fmt.Sprintf("waiting for a free slot (--max-parallel %d)", d.x.Engine.parallel)})
}

// Conclude lists every step in the chain's order, those that never
// started as skipped with the reason.
func (d *dagDriver) Conclude(ctx context.Context, res *record.Result) {
	x, c := d.x, d.x.Chain
	reason := "not run"
	var cause *record.StopCause
	calledOff := errors.As(context.Cause(ctx), &cause)
	switch {
	case calledOff:
		// a called chain, stopped because a step of its caller failed
		reason = "not run: " + strings.TrimPrefix(cause.Error(), "cancelled: ")
	case ctx.Err() != nil:
		reason = "not run: the run was interrupted"
	case x.failedStep != "":
		reason = "not run: step " + x.failedStep + " failed"
	case x.earlyExit != "":
		reason = "early exit after step " + x.earlyExit
	case len(x.waiting) > 0:
		reason = "not run: waiting at a gate"
	}
	notStarted := map[string]bool{}
	for _, id := range d.notStarted {
		notStarted[id] = true
	}
	for _, id := range d.notStarted {
		why := reason
		if f := d.blockedBy(id, notStarted); f != "" && !calledOff && ctx.Err() == nil {
			why = "not run: step " + f + " failed"
		}
		x.results[id] = &record.StepResult{ID: id, Status: record.StepSkipped, Reason: why}
		x.Emit(event.Event{Type: event.StepFinished, Step: id, Status: record.StepSkipped, Detail: why})
	}
	for _, s := range c.Steps {
		res.Steps = append(res.Steps, *x.results[s.ID])
	}
	switch {
	case calledOff && cause.Failed != "":
		res.Status, res.Error = record.Cancelled, cause.Error()
	case ctx.Err() != nil:
		res.Status = record.Interrupted
		res.Error = "interrupted"
		if x.Failure != "" {
			res.Error = "interrupted: " + x.Failure
		}
	case x.Failure != "":
		res.Status = record.Failed
		res.Error = x.Failure
		if n := len(x.alsoFailed); n > 0 {
			// with keep-going: every failure is named, the first in full
			word := "steps"
			if n == 1 {
				word = "step"
			}
			res.Error += fmt.Sprintf(" (and %d more failed %s: %s)", n, word, strings.Join(x.alsoFailed, ", "))
		}
	case len(x.waiting) > 0 && x.earlyExit == "":
		res.Status, res.WorkflowResult = record.Paused, x.gatePause()
	default:
		res.Status = record.Succeeded
	}
	if c.Output != "" && res.Status == record.Succeeded {
		if v, ok := x.Vars.Get(c.Output); ok {
			res.Output = v.Public()
		} else if c.Reading().UnsetOutputEmpty {
			res.Output = "" // OCC's: a variable nothing set is empty text
		}
	}
}

// failed records that step id failed and says what it means for the
// rest: with keep-going its dependents are held, never started, and the
// other steps go on; else the steps running are cancelled and no more
// start. x.mu is held.
func (d *dagDriver) failed(id string, sr *record.StepResult) dag.Outcome {
	x := d.x
	d.record(id, sr)
	if x.Engine.keepGoing || x.Chain.KeepGoing {
		return dag.Hold
	}
	d.stop(&record.StopCause{Failed: x.failedStep})
	return dag.Stop
}

// record notes a failure: the first is the run's, the others are named
// after it. x.mu is held.
func (d *dagDriver) record(id string, sr *record.StepResult) {
	x := d.x
	if x.Failure == "" {
		x.Failure, x.failedStep = fmt.Sprintf("step %s failed: %s", id, sr.Error), id
	} else {
		x.alsoFailed = append(x.alsoFailed, id)
	}
}

// blockedBy is the failed step that kept step id from starting: one it
// depends on, directly or through steps that never started; "" when
// none failed.
func (d *dagDriver) blockedBy(id string, notStarted map[string]bool) string {
	for _, dep := range d.x.Chain.Graph().Deps(id) {
		if r := d.x.results[dep]; r != nil && r.Status == record.StepFailed {
			return dep
		}
		if notStarted[dep] {
			if f := d.blockedBy(dep, notStarted); f != "" {
				return f
			}
		}
	}
	return ""
}

// visit runs one step for the scheduler and says what its outcome means.
func (d *dagDriver) visit(ctx context.Context, id string) dag.Outcome {
	x := d.x
	s := x.Chain.Step(id)
	var sr *record.StepResult
	var earlyExit bool
	if why, out := x.routedOut(s); out {
		sr = x.skipRouted(s, why)
		x.mu.Lock()
		x.results[id] = sr
		x.mu.Unlock()
		return dag.Continue
	}
	if rec, ok := x.Req.Resume[id]; ok && rec.Reusable() {
		sr, earlyExit = x.reuse(s, rec)
	} else {
		if sr := x.MarkStarted(s); sr != nil {
			x.mu.Lock()
			defer x.mu.Unlock()
			x.results[id] = sr
			return d.failed(id, sr)
		}
		sr, earlyExit = x.RunStep(ctx, s)
		if k := Kinds[s.Kind]; k.Again != nil {
			sr, earlyExit = x.evaluateAgain(ctx, s, k.Again, sr, earlyExit)
		}
		x.journal(s, sr)
	}
	if k := Kinds[s.Kind]; k.Route != nil && sr.Decision != "" && !record.Unfinished(sr.Status) {
		chosen, left := k.Route(s, sr.Decision)
		x.applyRoute(s, sr.Decision, chosen, left)
	}
	if sr.Status == record.StepSucceeded || sr.Status == record.StepSkipped {
		x.keepContextBudget(ctx, s)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.results[id] = sr
	switch {
	case sr.Status == record.Paused:
		// a gate waits: its dependents wait with it, the rest goes on
		return dag.Hold
	case sr.Status == record.StepCancelled, sr.Status == record.StepFailed && (ctx.Err() != nil || x.earlyExit != ""):
		// stopped by the run's cancellation or after an early exit: not a
		// failure of the run
		return dag.Stop
	case sr.Status == record.StepFailed && s.ContinueOnError:
		return dag.Continue
	case sr.Status == record.StepFailed && x.refused[id]:
		d.record(id, sr)
		// the calls in flight were admitted within the budget (and are
		// paid for): let them answer, start nothing more
		return dag.Drain
	case sr.Status == record.StepFailed:
		return d.failed(id, sr)
	case earlyExit:
		if x.earlyExit == "" {
			x.earlyExit = id
		}
		// an early exit cancels the steps still running: the run is done
		d.stop(&record.StopCause{EarlyExit: x.earlyExit})
		return dag.Stop
	}
	return dag.Continue
}
