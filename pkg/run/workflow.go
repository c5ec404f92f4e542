package run

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
)

// contextVar is where a workflow keeps its context among the variables,
// so that {context.x}, $.context.x and conditions read it like any other.
const contextVar = "context"

// flow is one call (a run or a resume) of a state workflow.
type flow struct {
	*execution
	w *chain.Workflow
	// state is where the run stands; arrived when it got there (for a
	// decision point's timeout).
	state   string
	arrived time.Time
	context map[string]any
	trace   []ChainEntry
	steps   []StepResult
	// depth counts the transitions taken on their own in this call.
	depth int
	take  string
	// links are offered when the call stops: a decision's choices, or the
	// retry of what failed.
	links  []Link
	status Status
	// decisionUsage counts the model calls of agent decisions.
	decisionUsage Usage
}

// TakeError is a --take that names no link of the decision the run is
// at. Nothing ran.
type TakeError struct {
	Take  string
	State string
	Links []Link
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *TakeError) NothingRan() bool { return true }

func (e *TakeError) Error() string {
	if len(e.Links) == 0 {
		return fmt.Sprintf("--take %s: the run is at state %q, which offers no transitions", e.Take, e.State)
	}
	names := make([]string, len(e.Links))
	for i, l := range e.Links {
		names[i] = l.Transition
	}
	return fmt.Sprintf("--take %s: state %q offers %s", e.Take, e.State, strings.Join(names, ", "))
}

// runWorkflow runs or resumes a state workflow.
func (l *Local) runWorkflow(ctx context.Context, req Request) (*Result, error) {
	c := req.Chain
	inputs, typed, err := resolveWorkflowInputs(c, req.Inputs)
	if err != nil {
		return nil, err
	}
	runID, err := l.admit(req)
	if err != nil {
		return nil, err
	}
	st := newStore(inputs)
	st.typed = typed
	start := l.now()
	x := l.newExecution(c, runID, st, newBudget(c, req.MaxTokens), req, nil)
	began := start
	if t, ok := RunIDTime(runID); ok {
		// a resume that finds the run still at its first state waits
		// since the run began, not since this call
		began = t
	}
	f := &flow{execution: x, w: c.Workflow, state: c.Workflow.InitialState, arrived: began, context: map[string]any{}, take: req.Take}
	f.replay(req.History)
	if err := f.checkTake(); err != nil {
		return nil, err
	}
	x.emit(event.Event{Type: event.RunStarted, Chain: c.Name, State: f.state})
	f.drive(ctx)
	return f.result(start), nil
}

// replay rebuilds state, variables and context from the transitions
// earlier calls took.
func (f *flow) replay(history []TransitionRecord) {
	lost := map[string]bool{}
	for _, h := range history {
		for name, v := range h.Vars {
			if v.Masked {
				// it held a secret input, which is never saved: leave it
				// unset rather than pass *** on as its value
				lost[name] = true
				f.st.del(name)
				continue
			}
			delete(lost, name)
			f.st.set(name, Value{Text: v.Text, Data: wholeNumbers(v.Data)})
		}
		if h.Context != nil {
			f.context = wholeNumbers(h.Context).(map[string]any)
			for _, k := range h.MaskedContext {
				delete(f.context, k)
				lost["context."+k] = true
			}
		}
		f.state, f.arrived = h.To, h.Time
	}
	if len(lost) > 0 {
		names := make([]string, 0, len(lost))
		for n := range lost {
			names = append(names, n)
		}
		sort.Strings(names)
		f.warn("resumed without " + strings.Join(names, ", ") + ": they held a secret input's value, which is never saved; a step that reads them fails")
	}
	f.st.set(contextVar, Value{Data: f.context})
}

// checkTake refuses, before anything runs, a --take that names no link of
// the state the run is at.
func (f *flow) checkTake() error {
	if f.take == "" {
		return nil
	}
	s := f.w.State(f.state)
	if s == nil || s.Terminal {
		return &TakeError{Take: f.take, State: f.state}
	}
	if s.Task != nil {
		if f.take == s.Name {
			return nil
		}
		return &TakeError{Take: f.take, State: f.state, Links: []Link{{Transition: s.Name, Title: "Retry: " + chain.Humanize(s.Name)}}}
	}
	viable, err := f.viable(s)
	if err != nil {
		return err
	}
	for _, t := range viable {
		if t.Name == f.take {
			return nil
		}
	}
	return &TakeError{Take: f.take, State: f.state, Links: linksOf(viable)}
}

// drive moves the run from state to state until a terminal state, a
// decision nobody here can make, the depth limit or a failure.
func (f *flow) drive(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			f.stop(Interrupted, "interrupted", nil)
			return
		}
		s := f.w.State(f.state)
		if f.state == chain.End || s.Terminal {
			f.status = Succeeded
			return
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
	viable, err := f.viable(s)
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
			f.fail(noSingleViable(s, viable), nil)
			return false
		}
		if !f.deeper() {
			return false
		}
		t = viable[0]
	default:
		if len(viable) == 0 {
			f.fail(fmt.Sprintf("state %s: no transition is viable (every condition is false)", s.Name), nil)
			return false
		}
		t, decidedBy = f.decide(ctx, s, viable)
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
		f.emit(event.Event{Type: event.Decision, State: s.Name, Step: t.Name, Target: t.Target, Actor: t.Actor, DecidedBy: decidedBy})
	}
	return f.take1(ctx, s, t, decidedBy)
}

// take1 runs a transition's executor, then moves to its target.
func (f *flow) take1(ctx context.Context, s *chain.State, t *chain.Transition, decidedBy string) bool {
	rec := TransitionRecord{From: s.Name, Transition: t.Name, To: t.Target, Actor: t.Actor, DecidedBy: decidedBy}
	if e := t.Executor; e != nil {
		sr, ok := f.runExecutor(ctx, e)
		rec.Step = sr
		if !ok {
			retry := []Link{{Transition: t.Name, Title: "Retry: " + t.DisplayTitle(), Actor: actorLink(t.Actor), Rerun: needsConfirmation(e)}}
			if ctx.Err() != nil {
				f.stop(Interrupted, "interrupted during transition "+t.Name, retry)
				return false
			}
			f.fail(fmt.Sprintf("transition %s failed: %s", t.Name, sr.Error), retry)
			return false
		}
		rec.Vars = f.outputVars(e)
		f.mergeContext(e)
	}
	f.moved(rec)
	return true
}

// runExecutor runs a transition's executor or a state's task as a step,
// marking it first when it must never repeat unconfirmed.
func (f *flow) runExecutor(ctx context.Context, e *chain.Step) (*StepResult, bool) {
	if f.req.Journal != nil && needsConfirmation(e) {
		if err := f.req.Journal.StepStarted(e.ID); err != nil {
			sr := &StepResult{ID: e.ID, Status: StepFailed, Error: "cannot record that this non-idempotent step began: " + err.Error()}
			f.steps = append(f.steps, *sr)
			return sr, false
		}
	}
	sr, _ := f.runStep(ctx, e)
	f.steps = append(f.steps, *sr)
	return sr, sr.Status != StepFailed
}

// deeper counts one more transition taken on its own, failing the run
// when maxChainDepth is reached.
func (f *flow) deeper() bool {
	if f.depth >= f.w.MaxChainDepth {
		last := ""
		if n := len(f.trace); n > 0 {
			last = fmt.Sprintf(" (last: %s → %s)", f.trace[n-1].FromState, f.trace[n-1].ToState)
		}
		f.fail(fmt.Sprintf("maxChainDepth %d reached: %d transitions ran on their own in this call without reaching a decision point or a terminal state%s; resume to continue",
			f.w.MaxChainDepth, f.depth, last), nil)
		return false
	}
	f.depth++
	return true
}

// moved records a transition durably, then enters its target.
func (f *flow) moved(rec TransitionRecord) {
	rec.Time = f.l.now()
	rec.Context = maps.Clone(f.context)
	f.emit(event.Event{Type: event.Transition, State: rec.From, Step: rec.Transition, Target: rec.To, Actor: rec.Actor, DecidedBy: rec.DecidedBy, Detail: rec.Result})
	if f.req.Journal != nil {
		if err := f.req.Journal.Transition(f.maskRecord(rec)); err != nil {
			f.warn("saving transition " + rec.Transition + ": " + err.Error())
		}
	}
	f.trace = append(f.trace, ChainEntry{FromState: rec.From, Transition: rec.Transition, ToState: rec.To, DecidedBy: rec.DecidedBy, Result: rec.Result})
	f.state, f.arrived = rec.To, rec.Time
}

// outputVars are the variables an executor set, for the saved record.
func (f *flow) outputVars(e *chain.Step) map[string]SavedValue {
	out := map[string]SavedValue{}
	for _, name := range []string{e.OutputVar, e.OutputVar + "_status"} {
		if v, ok := f.st.get(name); ok {
			out[name] = SavedValue{Text: v.Text, Data: v.Data}
		}
	}
	return out
}

// mergeContext merges a cli executor's JSON object output into context.
func (f *flow) mergeContext(e *chain.Step) {
	if e.Kind != chain.KindCLI {
		return
	}
	v, ok := f.st.get(e.OutputVar)
	if !ok {
		return
	}
	obj, ok := v.Data.(map[string]any)
	if !ok {
		return
	}
	merged := maps.Clone(f.context)
	maps.Copy(merged, obj)
	f.context = merged
	f.st.set(contextVar, Value{Data: merged})
}

// viable lists the state's transitions whose condition holds.
func (f *flow) viable(s *chain.State) ([]*chain.Transition, error) {
	var out []*chain.Transition
	sc := scope{st: f.st}
	for _, t := range s.Transitions {
		if cond := t.Cond(); cond != nil {
			holds, err := cond.Holds(sc.exprEnv(cond.Names))
			if err != nil {
				return nil, fmt.Errorf("state %s: transition %s: condition: %v", s.Name, t.Name, err)
			}
			if !holds {
				continue
			}
		}
		out = append(out, t)
	}
	return out, nil
}

func noSingleViable(s *chain.State, viable []*chain.Transition) string {
	if len(viable) == 0 {
		return fmt.Sprintf("state %s: no deterministic transition is viable (every condition is false)", s.Name)
	}
	names := make([]string, len(viable))
	for i, t := range viable {
		names[i] = t.Name
	}
	return fmt.Sprintf("state %s: %d deterministic transitions are viable (%s): exactly one must be; make their conditions exclusive", s.Name, len(viable), strings.Join(names, ", "))
}

func linksOf(ts []*chain.Transition) []Link {
	out := make([]Link, len(ts))
	for i, t := range ts {
		out[i] = Link{Transition: t.Name, Title: t.DisplayTitle(), Actor: actorLink(t.Actor)}
	}
	return out
}

// actorLink is the actor a link shows: who it waits for.
func actorLink(actor string) string {
	if actor == chain.ActorDeterministic {
		return ""
	}
	return actor
}

// fail stops the call with an error; links offer the retry.
func (f *flow) fail(msg string, links []Link) {
	f.stop(Failed, msg, links)
}

func (f *flow) stop(status Status, msg string, links []Link) {
	f.status = status
	if f.failure == "" {
		f.failure = msg
	}
	f.links = links
}

// maskRecord hides secret input values in a saved transition.
func (f *flow) maskRecord(rec TransitionRecord) TransitionRecord {
	if f.secrets == nil {
		return rec
	}
	vars := make(map[string]SavedValue, len(rec.Vars))
	for k, v := range rec.Vars {
		vars[k] = f.maskedValue(v)
	}
	rec.Vars = vars
	rec.Result = f.mask(rec.Result)
	if rec.Context != nil {
		masked, _ := f.maskValue(rec.Context).(map[string]any)
		for k, v := range masked {
			if !reflect.DeepEqual(v, rec.Context[k]) {
				rec.MaskedContext = append(rec.MaskedContext, k)
			}
		}
		sort.Strings(rec.MaskedContext)
		rec.Context = masked
	}
	if rec.Step != nil {
		sr := *rec.Step
		sr.Error, sr.Stderr = f.mask(sr.Error), f.mask(sr.Stderr)
		rec.Step = &sr
	}
	return rec
}

// result assembles the run's result and reference 000's response.
func (f *flow) result(start time.Time) *Result {
	res := &Result{
		RunID:     f.runID,
		Name:      f.c.Name,
		Status:    f.status,
		Vars:      map[string]any{},
		Steps:     f.steps,
		StartedAt: start.UTC().Format(time.RFC3339Nano),
		Error:     f.failure,
	}
	if res.Steps == nil {
		res.Steps = []StepResult{}
	}
	for _, sr := range f.steps {
		if sr.Usage != nil {
			res.Usage.add(*sr.Usage)
		}
	}
	res.Usage.add(f.decisionUsage)
	f.st.mu.RLock()
	for name, v := range f.st.vars {
		if name != contextVar {
			res.Vars[name] = v.public()
		}
	}
	f.st.mu.RUnlock()
	wr := &WorkflowResult{State: f.state, Chain: f.trace, Context: f.context, Links: f.links}
	if wr.Chain == nil {
		wr.Chain = []ChainEntry{}
	}
	for i := range wr.Chain {
		wr.Chain[i].Result = f.mask(wr.Chain[i].Result)
	}
	if wr.Links == nil {
		wr.Links = []Link{}
	}
	if s := f.w.State(f.state); s != nil && (s.Goal != "" || s.Guidance != "") {
		wr.Guidance = &Guidance{Goal: s.Goal, Instructions: s.Guidance}
	}
	if d := decisionDeadline(f.w.State(f.state), f.arrived); f.status == Paused && !d.IsZero() {
		wr.Deadline = d.UTC().Format(time.RFC3339)
	}
	res.WorkflowResult = wr
	if res.Status == Succeeded {
		if f.c.Output != "" && f.c.Output != contextVar {
			if v, ok := f.st.get(f.c.Output); ok {
				res.Output = v.public()
			}
		} else {
			res.Output = f.context
		}
	}
	res.DurationMS = f.l.now().Sub(start).Milliseconds()
	res.Warnings = f.warnings
	f.maskResult(res)
	if f.secrets != nil {
		wr.Context, _ = f.maskValue(wr.Context).(map[string]any)
	}
	f.emit(event.Event{Type: event.RunFinished, Chain: f.c.Name, Status: string(res.Status), Error: res.Error, DurationMS: res.DurationMS, State: f.state})
	return res
}

// sortedLinkNames lists link names for messages.
func sortedLinkNames(links []Link) []string {
	out := make([]string, len(links))
	for i, l := range links {
		out[i] = l.Transition
	}
	sort.Strings(out)
	return out
}
