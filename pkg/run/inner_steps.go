package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// The steps written inside a parallel or a pipeline step (its branches, a
// pipeline's steps) are saved in the run's journal one by one under their
// own ids (STEP[i]), as a called chain's steps are (CALLER/STEP): a
// resume keeps those that finished and runs only the rest, and one that
// is not idempotent and may have begun waits for --rerun (checkRerun),
// whether it was the step that failed or the run was killed while a
// sibling ran. Within one call, another attempt of the step keeps the
// non-idempotent ones that finished. The steps inside a loop's items
// share their ids across the items: they are not saved one by one.

// perItemKey marks the context of a loop's item.
type perItemKey struct{}

// runInner runs one branch or pipeline step r: kept as it was saved when
// it finished before, else marked begun when it is not idempotent, run,
// and saved.
func (x *Execution) runInner(ctx context.Context, r *branchRun) {
	if ctx.Value(perItemKey{}) != nil {
		x.runBranch(ctx, r)
		return
	}
	if rec, ok := x.keptInner(r.step); ok {
		x.reuseInner(r, rec)
		return
	}
	if sr := x.MarkStarted(r.step); sr != nil {
		r.err = &permanentError{errors.New(sr.Error)}
		x.Emit(event.Event{Type: event.StepFinished, Step: r.step.ID, Kind: string(r.step.Kind), Status: record.StepFailed, Error: sr.Error})
		return
	}
	sr := x.runBranch(ctx, r)
	rec := record.StepRecord{Result: sr}
	if r.err == nil && !r.skipped {
		rec.Output = &record.SavedValue{Text: r.value.Text, Data: r.value.Data}
	}
	if response.NeedsConfirmation(r.step) && rec.Reusable() {
		x.mu.Lock()
		x.keepInner(r.step.ID, rec)
		delete(x.begun, r.step.ID)
		x.mu.Unlock()
	}
	if x.Req.Journal == nil {
		return
	}
	if err := x.Req.Journal.StepFinished(x.mask2(rec)); err != nil {
		x.Warn("saving step " + r.step.ID + ": " + err.Error())
	}
}

// keptInner is the record of a branch or pipeline step b that already
// finished in this run: saved by an earlier call (taken once: a step run
// again in this call, as an evaluator's retry_target, runs it afresh),
// or, b not idempotent, by an earlier attempt in this one.
func (x *Execution) keptInner(b *chain.Step) (record.StepRecord, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if rec, ok := x.inner[b.ID]; ok {
		return rec, true
	}
	rec, ok := x.Req.Resume[b.ID]
	if !ok || !rec.Reusable() || x.taken[b.ID] {
		return record.StepRecord{}, false
	}
	if x.taken == nil {
		x.taken = map[string]bool{}
	}
	x.taken[b.ID] = true
	if response.NeedsConfirmation(b) {
		x.keepInner(b.ID, rec)
	}
	return rec, true
}

// keepInner keeps a finished non-idempotent branch or pipeline step for
// the attempts to come in this call (x.mu held).
func (x *Execution) keepInner(id string, rec record.StepRecord) {
	if x.inner == nil {
		x.inner = map[string]record.StepRecord{}
	}
	x.inner[id] = rec
}

// reuseInner takes a saved branch's or pipeline step's result as this
// attempt's: its output, or its skip.
func (x *Execution) reuseInner(r *branchRun, rec record.StepRecord) {
	b := r.step
	r.skipped = rec.Result.Status == record.StepSkipped
	if rec.Output != nil {
		r.value = interp.Value{Text: rec.Output.Text, Data: record.WholeNumbers(rec.Output.Data), JSON: b.OutputSchema == "json"}
	}
	x.Emit(event.Event{Type: event.StepFinished, Step: b.ID, Kind: string(b.Kind), Status: rec.Result.Status,
		Detail: "reused from the saved run", Attempt: rec.Result.Attempts, DurationMS: rec.Result.DurationMS})
}

// ForgetInner drops the records of steps written inside others, once the
// workflow moved on: a later visit of the same state runs them anew.
func (x *Execution) ForgetInner() {
	x.mu.Lock()
	x.inner, x.begun, x.taken = nil, nil, nil
	x.mu.Unlock()
	kept := make(map[string]record.StepRecord, len(x.Req.Resume))
	for id, rec := range x.Req.Resume {
		if _, nested := resume.OwnerOf(id); !nested {
			kept[id] = rec
		}
	}
	x.Req.Resume = kept
}

// WithReruns is retry l of a workflow's executor e, confirming the steps
// inside e that are not idempotent and began in this call without
// finishing: the journal holds their marks, so a resume asks for them.
func (x *Execution) WithReruns(l response.Link, e *chain.Step) response.Link {
	if e == nil {
		return l
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for id := range x.begun {
		if owner, nested := resume.OwnerOf(id); nested && owner == e.ID {
			l.Reruns = append(l.Reruns, id)
		}
	}
	slices.Sort(l.Reruns)
	return l
}

// BeganIn takes the steps a called workflow's execution sub marked begun
// and left unfinished as this execution's, under step (STEP/ID).
func (x *Execution) BeganIn(sub *Execution, step string) {
	sub.mu.Lock()
	ids := slices.Collect(maps.Keys(sub.begun))
	sub.mu.Unlock()
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, id := range ids {
		if x.begun == nil {
			x.begun = map[string]bool{}
		}
		x.begun[step+"/"+id] = true
	}
}

// branchRun is one step written inside another (a branch, a pipeline's
// step): its step, what it reads, and how it ended.
type branchRun struct {
	step  *chain.Step
	sc    Scope
	value interp.Value
	usage record.Usage
	err   error
	// skipped is a step whose condition was false: it succeeded
	// without running.
	skipped bool
}

// runBranch runs one branch's attempts under its own retry and timeout,
// as a step of its own in the run's events, and returns how it ended as
// its journal saves it.
func (x *Execution) runBranch(ctx context.Context, r *branchRun) record.StepResult {
	b := r.step
	start := x.Engine.Now()
	x.Emit(event.Event{Time: start, Type: event.StepStarted, Step: b.ID, Kind: string(b.Kind), Model: x.firstModel(b)})
	status, reason, attempts := record.StepSucceeded, "", 0
	if cond := b.C().Condition; cond != nil {
		holds, err := cond.HoldsContext(ctx, r.sc.ExprEnv(cond.Names))
		switch {
		case err != nil:
			r.err = fmt.Errorf("condition: %v", err)
		case !holds:
			status, reason, r.skipped = record.StepSkipped, "condition is false: "+b.Condition, true
		}
	}
	if r.err == nil && status == record.StepSucceeded {
		out, n, err := x.attempts(ctx, b, r.sc)
		r.value, r.usage, r.err, attempts = out.Value, out.usage, err, n
		for i, fb := range b.Fallbacks {
			if r.err == nil || ctx.Err() != nil {
				break
			}
			// mcp-flowgate runs a branch's and a pipeline step's own
			// reliability.fallback as a transition's (runReliably)
			x.Emit(event.Event{Type: event.FallbackSelected, Step: b.ID, Kind: string(fb.Kind), Candidate: i + 1, Error: r.err.Error(), Detail: fb.Who()})
			out, n, err = x.attempts(ctx, fb, r.sc)
			r.value, r.usage, r.err, attempts = out.Value, out.usage, err, attempts+n
		}
	}
	e := event.Event{Type: event.StepFinished, Step: b.ID, Kind: string(b.Kind), Status: status, Detail: reason,
		DurationMS: x.Engine.Now().Sub(start).Milliseconds()}
	if r.err != nil {
		e.Status, e.Error = record.StepFailed, r.err.Error()
		if ctx.Err() != nil {
			e.Status, e.Error = record.StepCancelled, ""
		}
	}
	x.Emit(e)
	return record.StepResult{ID: b.ID, Status: e.Status, Error: x.Mask(e.Error), Reason: x.Mask(reason), Attempts: attempts, DurationMS: e.DurationMS}
}
