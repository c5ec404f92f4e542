package flow

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// onEnterName is how records, traces and links name a state's onEnter.
const onEnterName = "onEnter"

// enterPending reports whether the state a record leads to still has its
// onEnter to run: it has one, and the record is not that onEnter's.
func enterPending(w *chain.Workflow, rec record.TransitionRecord) bool {
	s := w.State(rec.To)
	if s == nil || s.OnEnter == nil {
		return false
	}
	return !rec.Hook || rec.From != rec.To
}

// enter runs the onEnter of the state the run just entered: its executor,
// then its output mappings, saved as a record of their own so that a
// resume never runs them twice. A failure fails the run at the state;
// resume runs the onEnter again. It reports whether the run goes on.
func (f *flow) enter(ctx context.Context) bool {
	s := f.w.State(f.state)
	f.enterPending = false
	if s == nil || s.OnEnter == nil {
		return true
	}
	on := s.OnEnter
	rec := record.TransitionRecord{From: s.Name, Transition: onEnterName, To: s.Name, Actor: chain.ActorDeterministic, DecidedBy: onEnterName, Hook: true}
	retry := []response.Link{{Transition: onEnterName, Title: "Retry: enter " + s.Name, Actor: response.ActorLink(chain.ActorDeterministic)}}
	f.enterPending = true // until its record is saved
	switch fault, err := f.effect(ctx, s, on.Executor, on.Output, nil, &rec); fault {
	case effectPaused:
		return false // at a decision inside the workflow it runs
	case effectInterrupted:
		f.stop(record.Interrupted, "interrupted while entering state "+s.Name, retry)
		return false
	case effectFailed:
		f.fail(fmt.Sprintf("state %s: onEnter failed: %s", s.Name, err), retry)
		return false
	case effectRefused:
		f.fail(fmt.Sprintf("state %s: onEnter: %v", s.Name, err), retry)
		return false
	}
	return f.moved(rec, retry)
}

// timedOut moves a run whose workflow timeoutMs has passed to onTimeout's
// target, once (a timeout with no target moves nothing, as mcp-flowgate
// only records it): checked whenever a call drives the run (no scheduler
// runs in between), recorded as decided by "timeout". goOn is false when
// its record could not be saved (the run stopped).
func (f *flow) timedOut() (moved, goOn bool) {
	w := f.w
	if w.Timeout <= 0 || w.OnTimeout == "" || f.state == w.OnTimeout || f.state == chain.End {
		return false, true
	}
	if s := w.State(f.state); s == nil || s.Terminal {
		return false, true
	}
	began, ok := run.RunIDTime(f.RunID)
	if !ok || f.Engine.Now().Sub(f.NotAhead(began)) < w.Timeout {
		return false, true
	}
	moved = f.moved(record.TransitionRecord{From: f.state, Transition: "timeout", To: w.OnTimeout, Actor: chain.ActorDeterministic, DecidedBy: "timeout",
		Result: fmt.Sprintf("the workflow's timeoutMs (%s) passed", w.Timeout), Hook: true}, nil)
	return moved, moved
}

// waitForTimeout pauses the run at a state with no transitions, which
// only the workflow's timeout leaves (validation allows no other): a
// call after timeoutMs passed moves it to onTimeout's target, as
// mcp-flowgate's runtime does on its next get or submit.
func (f *flow) waitForTimeout(s *chain.State) {
	when := ""
	if began, ok := run.RunIDTime(f.RunID); ok {
		when = " at " + f.NotAhead(began).Add(f.w.Timeout).UTC().Format(time.RFC3339)
	}
	msg := fmt.Sprintf("state %s has no transitions: the run waits here until the workflow's timeoutMs (%s) passes%s, then moves to %s; resume then", s.Name, f.w.Timeout, when, f.w.OnTimeout)
	f.Warn(msg)
	f.status, f.links = record.Paused, nil
	f.Emit(event.Event{Type: event.Decision, State: s.Name, Status: record.Paused, Detail: msg})
}

// seedInputs begins the context with the inputs' values when the
// workflow declares them in the short form (v0.6 inputs, a snippet):
// a capability's blackboard begins as its inputs.
func (f *flow) seedInputs() {
	if !f.w.InputsInContext {
		return
	}
	in, _ := run.Scope{Vars: f.Vars}.ValueEnv([]string{"input"})["input"].(map[string]any)
	if len(in) == 0 {
		return
	}
	next := maps.Clone(f.context)
	maps.Copy(next, in)
	f.setContext(next)
}

// capabilityOutput is what a capability that ended well returns: the
// snippet's outputs taken from its context, each checked against its
// schema. A value the schema refuses fails the run.
func (f *flow) capabilityOutput() (map[string]any, error) {
	out := map[string]any{}
	for _, o := range f.w.Cap.Outputs {
		v, ok := f.context[o.Name]
		if !ok {
			continue
		}
		if o.Schema != nil {
			if err := o.Schema.Validate(v); err != nil {
				return nil, fmt.Errorf("snippet output %s: %s does not fit its schema: %v", o.Name, record.Clip(interp.TextOf(v), 60), err)
			}
		}
		out[o.Name] = v
	}
	return out, nil
}

// Ways an executor's effect (effect) can end.
const (
	effectDone        = iota
	effectPaused      // at a decision inside a workflow the executor runs
	effectInterrupted // the call was interrupted
	effectFailed      // the executor failed (after its retries)
	effectRefused     // an output mapping or a typed slot refused the value
)

// effect runs a transition's or an onEnter's executor (if any), then its
// output mappings (or merges a cli executor's JSON object), then checks
// the typed slots written at state s, filling rec's step and variables.
// A refused value leaves the context as it was.
func (f *flow) effect(ctx context.Context, s *chain.State, e *chain.Step, out []*chain.OutputMapping, args map[string]any, rec *record.TransitionRecord) (int, error) {
	before := f.context
	if e != nil {
		sr, ok, answered := f.runReliably(ctx, e)
		e = answered
		rec.Step = sr
		switch {
		case !ok && f.status == record.Paused:
			return effectPaused, nil
		case !ok && ctx.Err() != nil:
			return effectInterrupted, nil
		case !ok:
			return effectFailed, errors.New(sr.Error)
		}
		rec.Vars = f.outputVars(e)
		rec.Evidence = f.nestedEvidence(e)
		if len(out) == 0 {
			f.mergeContext(e)
		}
	}
	if len(out) > 0 {
		if err := f.mapMappings(out, f.pathDoc(e, rec.Step, args)); err != nil {
			f.setContext(before)
			return effectRefused, err
		}
	}
	if err := f.checkSlots(s, before); err != nil {
		return effectRefused, err
	}
	return effectDone, nil
}
