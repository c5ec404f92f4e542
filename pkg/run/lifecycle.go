package run

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// handlersFor are the lifecycle handlers a run that ended with status
// runs, in order: the one of its outcome, then on_exit. A paused run has
// not ended: it runs none (its resume will).
func handlersFor(status record.Status) []string {
	switch status {
	case record.Succeeded:
		return []string{chain.OnSuccess, chain.OnExit}
	case record.Failed:
		return []string{chain.OnFailure, chain.OnExit}
	case record.Interrupted, record.Cancelled:
		return []string{chain.OnCancel, chain.OnExit}
	}
	return nil
}

// runHandlers runs the chain's lifecycle handlers once its steps have
// finished and res says how the run ended; their steps go to
// res.Handlers. They change neither the run's status nor its output: a
// handler that fails is a warning. They are never journaled, so a
// resume runs the handlers of its own outcome, never reuses these.
func (x *Execution) runHandlers(ctx context.Context, res *record.Result) {
	if x.Chain.Handlers == nil || x.Engine.Remote != nil {
		return
	}
	names := handlersFor(res.Status)
	if len(names) == 0 {
		return
	}
	ctx, stop := interrupt.AfterStop(ctx) // on_cancel and on_exit run after a stop; a forced one ends them
	defer stop()
	// the steps have finished: from here nothing is journaled or kept,
	// so a chain a handler calls saves nothing of its own either, and
	// runs afresh in every attempt that ends
	x.Req.Journal, x.Req.Resume, x.Req.Started, x.Req.Rerun = nil, nil, nil, nil
	sc := Scope{Vars: x.Vars, local: x.handlerLocals(res)}
	for _, name := range names {
		x.runHandler(ctx, name, x.Chain.Handlers.Steps(name), sc, res)
	}
}

// runHandler runs one handler's steps in order; after a step that
// failed (without continue_on_error) the rest are skipped.
func (x *Execution) runHandler(ctx context.Context, name string, steps []*chain.Step, sc Scope, res *record.Result) {
	if len(steps) == 0 {
		return
	}
	x.Emit(event.Event{Type: event.HandlerStarted, Chain: x.Chain.Name, Handler: name, Status: res.Status})
	failed := ""
	for _, s := range steps {
		var sr *record.StepResult
		if failed != "" || ctx.Err() != nil {
			reason := "not run: " + name + " step " + failed + " failed"
			if failed == "" {
				reason = "not run: the handlers were stopped"
			}
			sr = &record.StepResult{ID: s.ID, Status: record.StepSkipped, Reason: reason}
			x.Emit(event.Event{Type: event.StepFinished, Step: s.ID, Kind: string(s.Kind), Status: record.StepSkipped, Detail: reason})
		} else {
			sr, _ = x.runStepIn(ctx, s, sc)
		}
		sr.Handler = name
		res.Handlers = append(res.Handlers, *sr)
		if record.Unfinished(sr.Status) {
			x.Warn(name + " handler: step " + s.ID + " failed: " + sr.Error)
			if !s.ContinueOnError && failed == "" {
				failed = s.ID
			}
		}
	}
}

// handlerLocals is what a handler's steps read besides the run's
// variables: {run} (its id, chain name, status, error and failed step),
// and "" for each output of a step that never ran, so that a failure's
// handler can name what it has.
func (x *Execution) handlerLocals(res *record.Result) map[string]interp.Value {
	local := map[string]interp.Value{"run": interp.DataValue(map[string]any{
		"id": x.RunID, "name": x.Chain.Name, "status": string(res.Status), "error": x.Mask(res.Error), "failed_step": x.failedStep,
	})}
	for _, s := range x.Chain.Steps {
		names := []string{s.OutputVar}
		if s.Kind == chain.KindHTTP && s.OutputVar != "" {
			names = append(names, s.OutputVar+"_status")
		}
		for _, name := range names {
			if _, set := x.Vars.Get(name); name != "" && !set {
				local[name] = interp.Value{}
			}
		}
	}
	return local
}
