package flow

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// flow is one call (a run or a resume) of a state workflow.
type flow struct {
	*run.Execution
	w *chain.Workflow
	// state is where the run stands; arrived when it got there (for a
	// decision point's timeout).
	state   string
	arrived time.Time
	// outcome is the declared outcome of the terminal state it ended at.
	outcome string
	context map[string]any
	trace   []response.ChainEntry
	steps   []record.StepResult
	// depth counts the transitions taken on their own in this call.
	depth int
	take  string
	// args are the arguments of the decision taken (--arg, a model's
	// tool call), read as $.arguments.
	args map[string]any
	// callerAcks are the caller's --ack, saved once the call drives.
	callerAcks []response.Described
	// links are offered when the call stops: a decision's choices, or the
	// retry of what failed.
	links  []response.Link
	status record.Status
	// decisionUsage counts the model calls of agent decisions.
	decisionUsage record.Usage
	// lastOutput names the variable of the last value an executor or a
	// task produced (noteOutput).
	lastOutput string
	// enterPending is set while the state's onEnter has yet to run.
	enterPending bool
	// cameBy is the transition that led to the current state, if any.
	cameBy *chain.Transition
	// history is every transition the run took, earlier calls' included,
	// as saved: what evidence guards count.
	history []record.TransitionRecord
	// savedContext is the context as the journal last saved it.
	savedContext map[string]any
	// hidden are the variables and context slots ("context.k") that held
	// a secret input's value in a replayed transition: saved as ***, so
	// unset now (guidance shows them as ***).
	hidden map[string]bool

	// pending is a workflow that a workflow step of the state the run is
	// at began and that has not ended; sub is it set up by a resume (the
	// --take went to it); entering is the transition whose workflow step
	// begins one (flow_sub.go).
	pending  *pendingSub
	sub      *flow
	entering record.SubEntry
	// within, subGuidance and subDeadline say where, inside a workflow a
	// step runs, the run paused or stopped, and that decision's guidance.
	within      []response.SubState
	subGuidance *response.Guidance
	subDeadline string
}

// newFlow sets up the flow driver of a workflow's Execution: it replays
// the transitions earlier calls took, then refuses a --take that names no
// link of the state the run is at, before anything runs.
// The flow driver runs every state workflow.
func init() {
	run.RegisterWorkflowDriver(run.WorkflowDriver{
		New:       func(x *run.Execution, req run.Request) (run.Driver, error) { return newFlow(x, req) },
		Preflight: preflightAcks,
		Admit:     checkDecider,
	})
}

// Exec is the execution the flow drives.
func (f *flow) Exec() *run.Execution { return f.Execution }

func newFlow(x *run.Execution, req run.Request) (*flow, error) {
	began := x.Engine.Now()
	if t, ok := run.RunIDTime(x.RunID); ok {
		// a resume that finds the run still at its first state waits
		// since the run began, not since this call
		began = x.NotAhead(t)
	}
	w := x.Chain.Workflow
	f := &flow{Execution: x, w: w, state: w.InitialState, arrived: began, context: map[string]any{}, take: req.Take}
	if len(w.InitialContext) > 0 {
		f.setContext(maps.Clone(w.InitialContext))
	}
	f.seedInputs()
	f.enterSlots("", f.state)
	f.enterPending = w.State(f.state) != nil && w.State(f.state).OnEnter != nil
	f.replay(req.History)
	f.savedContext = f.context
	if f.state != chain.End && w.State(f.state) == nil {
		return nil, &response.ChangedError{Workflow: x.Chain.Name, File: x.Chain.File, State: f.state}
	}
	routed, err := f.preparePending(req)
	if err != nil {
		return nil, err
	}
	if routed {
		// the --take, its arguments and acknowledgments were the
		// workflow's the run is in
		return f, nil
	}
	if err := f.takeAcks(req.Acks); err != nil {
		return nil, err
	}
	// the arguments first: the taken transition's guards may read them
	if err := f.takeArgs(req.Args); err != nil {
		return nil, err
	}
	if err := f.checkTake(); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *flow) Where() string { return f.state }

// Drive moves the run from state to state until a terminal state, a
// decision nobody here can make, the depth limit or a failure.
func (f *flow) Drive(ctx context.Context) {
	f.saveAcks()
	for {
		if ctx.Err() != nil {
			f.stop(record.Interrupted, "interrupted", nil)
			return
		}
		if moved, goOn := f.timedOut(); !goOn {
			return
		} else if moved {
			continue
		}
		if f.enterPending && !f.enter(ctx) {
			return
		}
		s := f.w.State(f.state)
		if f.state == chain.End || s.Terminal {
			f.end(s)
			return
		}
		if handled, moved := f.goOnPending(ctx, s); handled {
			if !moved {
				return
			}
			continue
		}
		var ok bool
		if s.Task != nil {
			ok = f.task(ctx, s)
		} else {
			ok = f.transitions(ctx, s)
		}
		if !ok {
			return
		}
	}
}

// transitions takes one transition of a state with named transitions, or
// stops the call. It reports whether the run moved on.
func (f *flow) transitions(ctx context.Context, s *chain.State) bool {
	if len(s.Transitions) == 0 {
		f.waitForTimeout(s)
		return false
	}
	viable, cands, err := f.viable(s)
	if err != nil {
		f.fail(err.Error(), nil)
		return false
	}
	var t *chain.Transition
	decidedBy := ""
	switch {
	case f.take != "":
		t, decidedBy = s.Transition(f.take), "caller"
		f.take = ""
	case s.Automatic():
		if len(viable) != 1 {
			f.fail(selectionError(s, cands, viable), nil)
			return false
		}
		if !f.deeper() {
			return false
		}
		t = viable[0]
	default:
		wait := waiting(cands)
		if len(viable) == 0 && len(wait) == 0 {
			// no transition is allowed: the run waits at the state, each
			// transition listed with what blocks it (mcp-flowgate)
			f.Warn(selectionError(s, cands, nil))
			f.status = record.Paused
			f.links = f.blockedLinks(s, nil)
			f.Emit(event.Event{Type: event.Decision, State: s.Name, Status: record.Paused, Detail: waitingFor(f.links)})
			return false
		}
		t, decidedBy = f.decide(ctx, s, viable, wait)
		if t == nil {
			return false
		}
		if decidedBy != "human" {
			// a model's or a timeout's choice is taken on the run's own,
			// like a deterministic transition (decide checked the limit)
			f.depth++
		}
	}
	if decidedBy != "" {
		f.Emit(event.Event{Type: event.Decision, State: s.Name, Step: t.Name, Target: t.Target, Actor: t.Actor, DecidedBy: decidedBy, Principal: f.principalID()})
	}
	return f.take1(ctx, s, t, decidedBy)
}

// take1 runs a transition's executor, then moves to its target.
func (f *flow) take1(ctx context.Context, s *chain.State, t *chain.Transition, decidedBy string) bool {
	rec := record.TransitionRecord{From: s.Name, Transition: t.Name, To: t.Target, Actor: t.Actor, DecidedBy: decidedBy, Principal: f.principalID(), Args: f.args}
	// the arguments are this decision's alone
	defer f.useArgs(nil)
	before := f.context
	if t.Executor != nil {
		f.entering = record.SubEntry{State: s.Name, Transition: t.Name, DecidedBy: decidedBy, Actor: t.Actor}
	}
	switch fault, err := f.effect(ctx, s, t.Executor, t.Output, f.args, &rec); fault {
	case effectPaused:
		return false // at a decision inside the workflow it runs
	case effectInterrupted:
		f.stop(record.Interrupted, "interrupted during transition "+t.Name, []response.Link{f.WithReruns(response.TransitionRetry(t), t.Executor)})
		return false
	case effectFailed:
		f.fail(fmt.Sprintf("transition %s failed: %s", t.Name, err), []response.Link{f.WithReruns(response.TransitionRetry(t), t.Executor)})
		return false
	case effectRefused:
		f.fail(fmt.Sprintf("transition %s: %v", t.Name, err), []response.Link{response.RetryOf(t)})
		return false
	}
	if len(t.Branches) > 0 {
		to, label, err := f.branchTarget(s, t)
		if err != nil {
			f.setContext(before)
			f.fail(fmt.Sprintf("transition %s: %v", t.Name, err), []response.Link{response.RetryOf(t)})
			return false
		}
		rec.To, rec.Result = to, label
	}
	return f.moved(rec, []response.Link{response.TransitionRetry(t)})
}

// branchTarget is where a transition with branches leads: the target of
// the first branch whose guard holds on the context it produced, else
// its own. A guard that reads an unset slot fails the transition.
func (f *flow) branchTarget(s *chain.State, t *chain.Transition) (string, string, error) {
	facts := f.guardFacts(s)
	for i, b := range t.Branches {
		ok, _, err := b.When.Holds(facts)
		if err != nil {
			return "", "", fmt.Errorf("branch %d: %w", i+1, err)
		}
		if ok {
			return b.Target, fmt.Sprintf("branch %d", i+1), nil
		}
	}
	return t.Target, "", nil
}

// runExecutor runs a transition's executor or a state's task as a step,
// marking it first when it must never repeat unconfirmed.
func (f *flow) runExecutor(ctx context.Context, e *chain.Step) (*record.StepResult, bool) {
	f.KeyTake = run.TakeKey(len(f.history))
	if sr := f.MarkStarted(e); sr != nil {
		f.steps = append(f.steps, *sr)
		return sr, false
	}
	if e.Kind == chain.KindWorkflow {
		sr, ok := f.runSub(ctx, e)
		if f.status != record.Paused {
			f.steps = append(f.steps, *sr)
		}
		return sr, ok
	}
	sr, _ := f.RunStep(ctx, e)
	f.steps = append(f.steps, *sr)
	return sr, !record.Unfinished(sr.Status)
}

// deeper counts one more transition taken on its own. At maxChainDepth
// the call stops (reference 000 lists the depth limit among the stop
// conditions): the run pauses at its state with its chain, resumable, and
// a resume chains on.
func (f *flow) deeper() bool {
	if f.depth >= f.w.MaxChainDepth {
		last := ""
		if n := len(f.trace); n > 0 {
			last = fmt.Sprintf(" (last: %s → %s)", f.trace[n-1].FromState, f.trace[n-1].ToState)
		}
		msg := fmt.Sprintf("maxChainDepth %d reached: %d transitions ran on their own in this call without reaching a decision point or a terminal state%s; resume to continue",
			f.w.MaxChainDepth, f.depth, last)
		f.Warn(msg)
		f.status = record.Paused
		f.Emit(event.Event{Type: event.Decision, State: f.state, Status: record.Paused, Detail: msg})
		return false
	}
	f.depth++
	return true
}

// moved records a transition durably, then enters its target. A record
// that cannot be saved stops the run where its journal leaves it (a
// resume cannot go on from past it): at the state it was leaving, with
// its context as saved, failed, offering retry. It reports whether the
// run moved.
func (f *flow) moved(rec record.TransitionRecord, retry []response.Link) bool {
	rec.Time = f.Engine.Now()
	if !rec.Hook {
		f.enterSlots(rec.From, rec.To)
	}
	rec.Context = maps.Clone(f.context)
	f.Emit(event.Event{Type: event.Transition, State: rec.From, Step: rec.Transition, Target: rec.To, Actor: rec.Actor, DecidedBy: rec.DecidedBy, Principal: rec.Principal, Detail: rec.Result})
	saved := f.maskRecord(rec)
	if f.Req.Journal != nil {
		if err := f.Req.Journal.Transition(saved); err != nil {
			f.setContext(f.savedContext)
			f.fail(fmt.Sprintf("saving transition %s: %v: the run stops at state %s, where its journal leaves it", rec.Transition, err, f.state), retry)
			return false
		}
	}
	f.savedContext = rec.Context
	f.history = append(f.history, saved)
	f.trace = append(f.trace, response.ChainEntry{FromState: rec.From, Transition: rec.Transition, ToState: rec.To, DecidedBy: rec.DecidedBy, Result: rec.Result})
	if !rec.Hook || rec.From != rec.To {
		f.state, f.arrived = rec.To, rec.Time
	}
	f.enterPending = enterPending(f.w, rec)
	f.noteArrival(rec)
	f.noteOutput(rec)
	// the branches and steps saved inside its executor are done with
	f.ForgetInner()
	return true
}

// noteOutput keeps the variable of the value a transition's executor or
// a state's task produced, when it did: a workflow without `output:`
// whose context stayed empty prints the last one. A task chain's failed
// task leaves an output too (its input, or a note of its error), which
// the task its failure leads to reads as previous_output, as contenox's.
func (f *flow) noteOutput(rec record.TransitionRecord) {
	e, _ := f.executorOf(rec)
	if rec.Step == nil || e == nil || record.Unfinished(rec.Step.Status) && e.Handler == nil {
		return
	}
	if e.OutputVar != "" {
		if _, ok := rec.Vars[e.OutputVar]; ok {
			f.lastOutput = e.OutputVar
		}
	}
}

// fail stops the call with an error; links offer the retry.
// end concludes a run that reached a terminal state (nil: goto end) with
// the outcome the state declares.
func (f *flow) end(s *chain.State) {
	f.status = record.Succeeded
	if s == nil {
		return
	}
	f.outcome = s.Outcome
	switch s.Outcome {
	case chain.OutcomeFailed:
		f.stop(record.Failed, "ended at state "+s.Name+", whose outcome is failed", nil)
	case chain.OutcomeCancelled:
		f.stop(record.Cancelled, "ended at state "+s.Name+", whose outcome is cancelled", nil)
	}
}

func (f *flow) fail(msg string, links []response.Link) {
	f.stop(record.Failed, msg, links)
}

func (f *flow) stop(status record.Status, msg string, links []response.Link) {
	f.status = status
	if f.Failure == "" {
		f.Failure = msg
	}
	f.links = links
}
