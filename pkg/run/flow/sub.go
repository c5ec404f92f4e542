package flow

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// A workflow step that is a workflow's executor or task runs its workflow
// as part of the run (mcp-flowgate's workflow executor, whose parent
// waits for it): the workflow's transitions are saved in the run's
// journal, marked Within the step, after a record of where it began
// (Enter). When it reaches a decision point nobody here can make, the
// whole run pauses there: the result's links are that decision's, and
// Within says where it is. `resume --take T` then replays the run to the
// state whose transition runs the workflow, replays the workflow from
// its own records, and takes T there; the workflow's end sets the
// context keys of use.outputs, and the run goes on.

// pendingSub is a workflow a workflow step began and that has not ended,
// as the saved transitions tell.
type pendingSub struct {
	step  string
	enter record.SubEntry
	// records are the workflow's own, Within made relative to it.
	records []record.TransitionRecord
}

// replayNested keeps a record of a workflow a step runs: the one that
// began it, then the workflow's own.
func (f *flow) replayNested(h record.TransitionRecord) {
	step, rest, _ := strings.Cut(h.Within, "/")
	if h.Enter != nil && rest == "" {
		f.pending = &pendingSub{step: step, enter: *h.Enter}
		return
	}
	if f.pending == nil || f.pending.step != step {
		return // a record of a workflow that began before this history: none to go on with
	}
	h.Within = rest
	f.pending.records = append(f.pending.records, h)
}

// pendingExecutor is the workflow step of the state the run is at whose
// workflow is under way, with the transition that runs it (nil for a
// task); nil when there is none.
func (f *flow) pendingExecutor() (*chain.Step, *chain.Transition) {
	p := f.pending
	s := f.w.State(f.state)
	if p == nil || s == nil || p.enter.State != s.Name {
		return nil, nil
	}
	var e *chain.Step
	var t *chain.Transition
	if s.Task != nil && p.enter.Transition == s.Name {
		e = s.Task
	} else if t = s.Transition(p.enter.Transition); t != nil {
		e = t.Executor
	}
	if e == nil || e.Kind != chain.KindWorkflow || e.ID != p.step {
		return nil, nil
	}
	return e, t
}

// preparePending sets up, before anything runs, the workflow a resume
// goes on with: the caller's --take (and --arg) are its decision's,
// unless they name the transition that runs it, which then goes on as
// it stands. A --take it does not offer is refused here.
func (f *flow) preparePending(req run.Request) (bool, error) {
	e, _ := f.pendingExecutor()
	if e == nil {
		f.pending = nil
		return false, nil
	}
	p := f.pending
	take, args, acks := req.Take, req.Args, req.Acks
	if take == p.enter.Transition {
		take, args, acks = "", nil, nil
	}
	f.useArgs(p.enter.Args)
	d, err := f.PrepareWorkflow(e, run.Scope{Vars: f.Vars}, run.SubCall{History: p.records, Take: take, Args: args, Acks: acks,
		Journal: nested(f.Req.Journal, e.ID), Human: f.Req.Human})
	if err != nil {
		return true, err
	}
	f.sub, f.take = d.(*flow), ""
	return true, nil
}

// goOnPending takes again the transition (or task) whose workflow is
// under way, as it was decided. It reports whether there was one, and
// whether the run moved on.
func (f *flow) goOnPending(ctx context.Context, s *chain.State) (handled, moved bool) {
	e, t := f.pendingExecutor()
	if e == nil {
		return false, false
	}
	p := f.pending
	f.pending = nil
	if p.enter.DecidedBy == "" && !f.deeper() {
		return true, false
	}
	f.useArgs(p.enter.Args)
	if t == nil {
		return true, f.taskWith(ctx, s, p.enter.DecidedBy)
	}
	return true, f.take1(ctx, s, t, p.enter.DecidedBy)
}

// runSub runs a workflow step of the flow: the workflow set up by a
// resume, or a fresh one, whose beginning is saved first. A pause inside
// it pauses the run (f.status); a failure or an interrupt is the step's,
// and Within says where it happened.
func (f *flow) runSub(ctx context.Context, e *chain.Step) (*record.StepResult, bool) {
	start := f.Engine.Now()
	f.Emit(event.Event{Time: start, Type: event.StepStarted, Step: e.ID, Kind: string(e.Kind)})
	sr := &record.StepResult{ID: e.ID, Attempts: 1}
	finish := func(status record.StepStatus, text string) (*record.StepResult, bool) {
		sr.Status, sr.DurationMS = status, f.Engine.Now().Sub(start).Milliseconds()
		ev := event.Event{Type: event.StepFinished, Step: e.ID, Kind: string(e.Kind), Status: status, DurationMS: sr.DurationMS, Attempt: 1}
		if status == record.Paused {
			ev.Detail = text
		} else {
			sr.Error = f.Mask(text)
			ev.Error = sr.Error
		}
		f.Emit(ev)
		return sr, status == record.StepSucceeded
	}
	cf := f.sub
	f.sub = nil
	if cf == nil && f.Engine.StandIn != nil {
		if c, ok := f.Engine.StandIn(ctx, e); ok {
			// a test's mock of the step: the workflow does not run (as
			// mcp-flowgate's tests stand in for its workflow executor)
			out, err := run.CannedOutcome(e, c)
			if err != nil {
				return finish(record.StepFailed, err.Error())
			}
			f.SetOutput(e, out.Value)
			f.useOutputs(e, cannedContext(out.Value))
			return finish(record.StepSucceeded, "")
		}
	}
	if cf == nil {
		var err error
		d, err := f.PrepareWorkflow(e, run.Scope{Vars: f.Vars}, run.SubCall{Journal: nested(f.Req.Journal, e.ID), Human: f.Req.Human})
		if err != nil {
			return finish(record.StepFailed, err.Error())
		}
		cf = d.(*flow)
		f.entering.Workflow = cf.Chain.Name
		f.entering.Args = f.args
		f.journalEnter(e, cf)
	}
	callCtx := ctx
	if e.TimeoutMS > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, time.Duration(e.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	res := cf.Execution.Run(callCtx, cf)
	f.BeganIn(cf.Execution, e.ID)
	if res.Usage.LLMCalls > 0 || res.Usage.Cached > 0 {
		u := res.Usage
		sr.Usage = &u
	}
	if wr := res.WorkflowResult; wr != nil && res.Status != record.Succeeded {
		f.within = append([]response.SubState{{Step: e.ID, Workflow: res.Name, State: wr.State}}, wr.Within...)
		f.subGuidance, f.subDeadline = wr.Guidance, wr.Deadline
	}
	switch res.Status {
	case record.Succeeded:
		f.SetOutput(e, interp.DataValue(record.WorkflowOutput(e, res)))
		var final map[string]any
		if res.WorkflowResult != nil {
			final = res.Context
		}
		f.useOutputs(e, final)
		return finish(record.StepSucceeded, "")
	case record.Paused:
		f.status, f.links = record.Paused, res.Links
		return finish(record.Paused, "waiting inside workflow "+res.Name)
	}
	if ctx.Err() != nil {
		return finish(record.StepFailed, "interrupted")
	}
	if callCtx.Err() != nil {
		return finish(record.StepFailed, fmt.Sprintf("timed out after %s (timeout_ms: %d)", time.Duration(e.TimeoutMS)*time.Millisecond, e.TimeoutMS))
	}
	where := ""
	if wr := res.WorkflowResult; wr != nil {
		where = " at state " + wr.State
	}
	return finish(record.StepFailed, fmt.Sprintf("workflow %s %s%s: %s", res.Name, res.Status, where, res.Error))
}

// cannedContext is the final context a mocked workflow step stands for:
// its output, an object (or text holding one) keyed as the workflow's
// context is; anything else holds no key.
func cannedContext(v interp.Value) map[string]any {
	if m, ok := v.Data.(map[string]any); ok {
		return m
	}
	var m map[string]any
	if json.Unmarshal([]byte(v.Text), &m) == nil {
		return m
	}
	return nil
}

// journalEnter saves where a workflow step's workflow begins, before it
// runs: a resume after a pause, a failure or a crash inside it goes on
// with it there.
func (f *flow) journalEnter(e *chain.Step, cf *flow) {
	if f.Req.Journal == nil {
		return
	}
	enter := f.entering
	enter.Args = f.maskArgs(enter.Args)
	rec := record.TransitionRecord{Within: e.ID, Enter: &enter, To: cf.w.InitialState, Time: f.Engine.Now()}
	if err := f.Req.Journal.Transition(rec); err != nil {
		f.Warn("saving the beginning of workflow " + cf.Chain.Name + ": " + err.Error())
	}
}

// maskArgs hides secret input values in a decision's arguments.
func (f *flow) maskArgs(args map[string]any) map[string]any {
	if f.Secrets == nil || args == nil {
		return args
	}
	masked, _ := f.MaskValue(args).(map[string]any)
	return masked
}

// useOutputs sets the context keys a workflow step's use.outputs name,
// from the final context of the workflow it ran (a key it lacks: null).
func (f *flow) useOutputs(e *chain.Step, final map[string]any) {
	bs := e.Outputs()
	if len(bs) == 0 {
		return
	}
	next := maps.Clone(f.context)
	if next == nil {
		next = map[string]any{}
	}
	for _, b := range bs {
		next[b.Key] = final[b.From]
	}
	f.setContext(next)
}

// nested saves a workflow step's workflow in its caller's journal: its
// transitions marked Within the step, its steps as STEP/ID.
func nested(j record.Journal, step string) record.Journal {
	if j == nil {
		return nil
	}
	return nestJournal{record.PrefixJournal{Journal: j, Prefix: step + "/"}}
}

type nestJournal struct{ record.PrefixJournal }

func (n nestJournal) Transition(rec record.TransitionRecord) error {
	step := strings.TrimSuffix(n.Prefix, "/")
	if rec.Within == "" {
		rec.Within = step
	} else {
		rec.Within = n.Prefix + rec.Within
	}
	if rec.Step != nil {
		sr := *rec.Step
		sr.ID = n.Prefix + sr.ID
		rec.Step = &sr
	}
	return n.Journal.Transition(rec)
}
