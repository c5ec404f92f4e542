package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/event"
)

// execution is the state of one run in progress.
type execution struct {
	l       *Local
	c       *chain.Chain
	runID   string
	st      *store
	mu      sync.Mutex
	results map[string]*StepResult
	// failure is the first step failure that stopped the run.
	failure    string
	failedStep string
	earlyExit  string
}

// Run executes the chain and returns its result. See Engine.
func (l *Local) Run(ctx context.Context, req Request) (*Result, error) {
	c := req.Chain
	inputs, err := ResolveInputs(c, req.Inputs)
	if err != nil {
		return nil, err
	}
	if err := l.preflight(c, nil); err != nil {
		return nil, err
	}
	runID := req.RunID
	if runID == "" {
		runID = NewRunID(l.now())
	}
	return l.execute(ctx, c, inputs, runID), nil
}

// execute runs a checked chain with resolved inputs.
func (l *Local) execute(ctx context.Context, c *chain.Chain, inputs map[string]string, runID string) *Result {
	start := l.now()
	x := &execution{l: l, c: c, runID: runID, st: newStore(inputs), results: map[string]*StepResult{}}
	l.events.Emit(event.Event{V: event.SchemaVersion, Time: start, RunID: runID, Type: event.RunStarted, Chain: c.Name})

	notStarted := c.Graph().Run(ctx, l.parallel, x.visit)

	res := &Result{
		RunID:     runID,
		Name:      c.Name,
		Vars:      map[string]any{},
		StartedAt: start.UTC().Format(time.RFC3339Nano),
	}
	reason := "not run"
	switch {
	case ctx.Err() != nil:
		reason = "not run: the run was interrupted"
	case x.failedStep != "":
		reason = "not run: step " + x.failedStep + " failed"
	case x.earlyExit != "":
		reason = "early exit after step " + x.earlyExit
	}
	for _, id := range notStarted {
		x.results[id] = &StepResult{ID: id, Status: StepSkipped, Reason: reason}
		l.emitStep(runID, event.StepFinished, id, string(StepSkipped), reason, 0)
	}
	for _, s := range c.Steps {
		sr := x.results[s.ID]
		res.Steps = append(res.Steps, *sr)
		if sr.Usage != nil {
			res.Usage.LLMCalls += sr.Usage.LLMCalls
			res.Usage.InputTokens += sr.Usage.InputTokens
			res.Usage.OutputTokens += sr.Usage.OutputTokens
			res.Usage.Cached += sr.Usage.Cached
		}
	}
	for name, v := range x.st.vars {
		res.Vars[name] = v.public()
	}
	switch {
	case ctx.Err() != nil:
		res.Status = Interrupted
		res.Error = "interrupted"
		if x.failure != "" {
			res.Error = "interrupted: " + x.failure
		}
	case x.failure != "":
		res.Status = Failed
		res.Error = x.failure
	default:
		res.Status = Succeeded
	}
	if c.Output != "" && res.Status == Succeeded {
		if v, ok := x.st.get(c.Output); ok {
			res.Output = v.public()
		}
	}
	res.DurationMS = l.now().Sub(start).Milliseconds()
	l.events.Emit(event.Event{V: event.SchemaVersion, Time: l.now(), RunID: runID, Type: event.RunFinished, Chain: c.Name,
		Status: string(res.Status), Error: res.Error, DurationMS: res.DurationMS})
	return res
}

// visit runs one step for the scheduler and says what its outcome means.
func (x *execution) visit(ctx context.Context, id string) dag.Outcome {
	s := x.c.Step(id)
	sr, earlyExit := x.runStep(ctx, s)
	x.mu.Lock()
	x.results[id] = sr
	x.mu.Unlock()
	switch {
	case sr.Status == StepFailed && ctx.Err() != nil:
		// stopped by the run's cancellation, not a failure of its own
		return dag.Stop
	case sr.Status == StepFailed && s.ContinueOnError:
		return dag.Continue
	case sr.Status == StepFailed:
		x.mu.Lock()
		if x.failure == "" {
			x.failure = fmt.Sprintf("step %s failed: %s", id, sr.Error)
			x.failedStep = id
		}
		x.mu.Unlock()
		return dag.Stop
	case earlyExit:
		x.mu.Lock()
		if x.earlyExit == "" {
			x.earlyExit = id
		}
		x.mu.Unlock()
		return dag.Drain
	}
	return dag.Continue
}

func (l *Local) emitStep(runID string, t event.Type, step, status, detail string, d time.Duration) {
	l.events.Emit(event.Event{V: event.SchemaVersion, Time: l.now(), RunID: runID, Type: t, Step: step,
		Status: status, Detail: detail, DurationMS: d.Milliseconds()})
}

// UnsupportedError names a step that uses something this version cannot
// run yet. It is found before any step runs.
type UnsupportedError struct {
	File string
	Pos  chain.Pos
	Step string
	What string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s:%s: step %q: %s is not supported yet; nothing was run", e.File, e.Pos, e.Step, e.What)
}

// preflight finds, before any step runs, every step the local engine
// cannot run: kinds not supported yet, and chain steps whose callee is
// missing, takes other inputs, or calls back into a chain on the stack.
func (l *Local) preflight(c *chain.Chain, stack []string) error {
	stack = append(stack, c.Name)
	for _, s := range c.Steps {
		bad := func(field, what string) error {
			return &UnsupportedError{File: c.File, Pos: s.At(field), Step: s.ID, What: what}
		}
		switch s.Kind {
		case chain.KindAgent:
			return bad("prompt", "an agent step (an LLM call)")
		case chain.KindHuman:
			return bad("type", "a human step (a decision point)")
		case chain.KindChain:
			if err := l.preflightCall(c, s, stack); err != nil {
				return err
			}
		}
		for _, g := range s.Guardrails {
			if g.Type == "json_schema" {
				return bad("guardrails", "the json_schema guardrail")
			}
		}
	}
	return nil
}

// CallError is a chain step that cannot call its chain. Nothing ran.
type CallError struct {
	File string
	Pos  chain.Pos
	Step string
	Msg  string
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s:%s: step %q: %s; nothing was run", e.File, e.Pos, e.Step, e.Msg)
}

func (l *Local) preflightCall(c *chain.Chain, s *chain.Step, stack []string) error {
	fail := func(format string, args ...any) error {
		return &CallError{File: c.File, Pos: s.At("chain"), Step: s.ID, Msg: fmt.Sprintf(format, args...)}
	}
	if l.chains == nil {
		return fail("calling chain %q needs a chain catalog", s.Chain)
	}
	for _, name := range stack {
		if name == s.Chain {
			return fail("chain %q calls itself: %s → %s", s.Chain, strings.Join(stack, " → "), s.Chain)
		}
	}
	callee, err := l.chains(s.Chain)
	if err != nil {
		return fail("cannot call chain %q: %v", s.Chain, err)
	}
	given := map[string]string{}
	for k := range s.With {
		given[k] = "set"
	}
	if _, err := ResolveInputs(callee, given); err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return fail("with: %s", ie.Msg)
		}
		return fail("with: %v", err)
	}
	return l.preflight(callee, stack)
}

// cancelReason says why a running step was stopped: a sibling's failure
// or the run's interruption.
func (x *execution) cancelReason() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.failedStep != "" {
		return "cancelled: step " + x.failedStep + " failed"
	}
	return "interrupted"
}
