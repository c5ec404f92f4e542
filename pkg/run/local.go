package run

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
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
	secrets    *strings.Replacer
	// secretValues are handed down to the chains this one calls.
	secretValues []string
	// itemSlots bounds the loop items running at once across the run.
	itemSlots chan struct{}
	// budget, when set, caps the run's model use.
	budget *llm.Budget
	// req is what the run was asked: journal, resume state.
	req      Request
	warnings []string
	// bin is the chain's bin/ directory, looked up once.
	bin     string
	binOnce sync.Once
	// spills numbers the files oversized outputs are kept in.
	spills atomic.Int64
}

// Run executes the chain and returns its result. See Engine.
func (l *Local) Run(ctx context.Context, req Request) (*Result, error) {
	c := req.Chain
	if c.Workflow != nil {
		return l.runWorkflow(ctx, req)
	}
	inputs, err := ResolveInputs(c, req.Inputs)
	if err != nil {
		return nil, err
	}
	runID, err := l.admit(req)
	if err != nil {
		return nil, err
	}
	return l.execute(ctx, c, inputs, runID, newBudget(c, req.MaxTokens), req, nil), nil
}

// admit checks, before anything runs, every step's model and callee and
// any unconfirmed rerun, then names the run.
func (l *Local) admit(req Request) (string, error) {
	c := req.Chain
	if err := preflight(l, c, l.chains, nil); err != nil {
		return "", err
	}
	if c.Workflow != nil {
		if err := l.checkDecider(c, req); err != nil {
			return "", err
		}
	}
	if err := l.checkRerun(c, req); err != nil {
		return "", err
	}
	if req.RunID != "" {
		return req.RunID, nil
	}
	return NewRunID(l.now()), nil
}

// newExecution sets up one run of a checked chain (a DAG chain, a
// workflow, or a chain a step calls) over the given variable store.
func (l *Local) newExecution(c *chain.Chain, runID string, st *store, b *llm.Budget, req Request, inheritedSecrets []string) *execution {
	secrets := secretValues(c, st.inputs, inheritedSecrets)
	return &execution{l: l, c: c, runID: runID, st: st, results: map[string]*StepResult{},
		secrets: secretReplacer(secrets), secretValues: secrets, itemSlots: make(chan struct{}, l.parallel), budget: b, req: req}
}

// execute runs a checked chain with resolved inputs.
func (l *Local) execute(ctx context.Context, c *chain.Chain, inputs map[string]string, runID string, b *llm.Budget, req Request, inheritedSecrets []string) *Result {
	start := l.now()
	x := l.newExecution(c, runID, newStore(inputs), b, req, inheritedSecrets)
	x.emit(event.Event{Type: event.RunStarted, Chain: c.Name})

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
		x.emit(event.Event{Type: event.StepFinished, Step: id, Status: string(StepSkipped), Detail: reason})
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
	res.Warnings = x.warnings
	x.maskResult(res)
	x.emit(event.Event{Type: event.RunFinished, Chain: c.Name, Status: string(res.Status), Error: res.Error, DurationMS: res.DurationMS})
	return res
}

// visit runs one step for the scheduler and says what its outcome means.
func (x *execution) visit(ctx context.Context, id string) dag.Outcome {
	s := x.c.Step(id)
	var sr *StepResult
	var earlyExit bool
	if rec, ok := x.req.Resume[id]; ok && rec.Reusable() {
		sr, earlyExit = x.reuse(s, rec)
	} else {
		if x.req.Journal != nil && needsConfirmation(s) {
			if err := x.req.Journal.StepStarted(id); err != nil {
				// without the mark a crash could repeat it unasked: refuse
				sr = &StepResult{ID: id, Status: StepFailed, Error: "cannot record that this non-idempotent step began: " + err.Error()}
				x.mu.Lock()
				x.results[id] = sr
				if x.failure == "" {
					x.failure, x.failedStep = "step "+id+" failed: "+sr.Error, id
				}
				x.mu.Unlock()
				return dag.Stop
			}
		}
		sr, earlyExit = x.runStep(ctx, s)
		x.journal(s, sr)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.results[id] = sr
	switch {
	case sr.Status == StepFailed && (ctx.Err() != nil || x.earlyExit != ""):
		// stopped by the run's cancellation or after an early exit: not a
		// failure of the run
		return dag.Stop
	case sr.Status == StepFailed && s.ContinueOnError:
		return dag.Continue
	case sr.Status == StepFailed:
		if x.failure == "" {
			x.failure = fmt.Sprintf("step %s failed: %s", id, sr.Error)
			x.failedStep = id
		}
		return dag.Stop
	case earlyExit:
		if x.earlyExit == "" {
			x.earlyExit = id
		}
		// an early exit cancels the steps still running: the run is done
		return dag.Stop
	}
	return dag.Continue
}

// emit stamps an event with the schema version, time and run id, masks
// secret input values in its text, and sends it.
func (x *execution) emit(e event.Event) {
	e.V, e.RunID = event.SchemaVersion, x.runID
	if e.Time.IsZero() {
		e.Time = x.l.now()
	}
	e.Error, e.Line, e.Detail = x.mask(e.Error), x.mask(e.Line), x.mask(e.Detail)
	x.l.events.Emit(e)
	if x.req.Events != nil {
		x.req.Events.Emit(e)
	}
}

// CheckCalls reports the first chain step of c (or of a chain it calls)
// whose callee is missing, takes other inputs, or calls back into a chain
// on the stack. `validate` uses it; `run` checks the same before starting.
func CheckCalls(c *chain.Chain, resolve ChainResolver) error {
	return preflight(nil, c, resolve, nil)
}

// preflight finds, before any step runs, every step that cannot run: chain
// steps that cannot call their chain and, when l is set (a run, not a
// validation), agent steps without a usable model and features not
// supported yet.
func preflight(l *Local, c *chain.Chain, resolve ChainResolver, stack []string) error {
	stack = append(stack, c.Name)
	for _, s := range c.Steps {
		bad := func(field, what string) error {
			return &PreflightError{Kind: Unsupported, File: c.File, Pos: s.At(field), Step: s.ID, Msg: what}
		}
		if s.Kind == chain.KindChain {
			if err := preflightCall(l, c, s, resolve, stack); err != nil {
				return err
			}
		}
		if l == nil {
			continue
		}
		switch s.Kind {
		case chain.KindAgent:
			if s.Cache != nil && s.Cache.Enabled && l.cache == nil {
				return bad("cache", "cache without a cache directory")
			}
			if _, err := l.targets(c, s); err != nil {
				return err
			}
		case chain.KindHuman:
			return bad("type", "a human step (a decision point)")
		}
	}
	return nil
}

func preflightCall(l *Local, c *chain.Chain, s *chain.Step, resolve ChainResolver, stack []string) error {
	fail := func(format string, args ...any) error {
		return &PreflightError{Kind: BadCall, File: c.File, Pos: s.At("chain"), Step: s.ID, Msg: fmt.Sprintf(format, args...)}
	}
	if resolve == nil {
		return fail("calling chain %q needs a chain catalog", s.Chain)
	}
	for _, name := range stack {
		if name == s.Chain {
			return fail("chain %q calls itself: %s → %s", s.Chain, strings.Join(stack, " → "), s.Chain)
		}
	}
	callee, err := resolve(s.Chain)
	if err != nil {
		return fail("cannot call chain %q: %v", s.Chain, err)
	}
	if callee.Workflow != nil {
		return fail("%q is a state workflow: a chain step calls DAG chains (a workflow may pause for a decision, which a step cannot)", s.Chain)
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
	return preflight(l, callee, resolve, stack)
}

// cancelled says what became of a step stopped while running: skipped
// after an early exit, failed after a sibling's failure or an interrupt.
func (x *execution) cancelled() (status StepStatus, errText, reason string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.earlyExit != "":
		return StepSkipped, "", "cancelled: early exit after step " + x.earlyExit
	case x.failedStep != "":
		return StepFailed, "cancelled: step " + x.failedStep + " failed", ""
	}
	return StepFailed, "interrupted", ""
}

// reuse keeps a step's result from an earlier attempt of the run.
func (x *execution) reuse(s *chain.Step, rec StepRecord) (*StepResult, bool) {
	x.restore(s, rec)
	sr := rec.Result
	sr.Reused = true
	x.emit(event.Event{Type: event.StepFinished, Step: s.ID, Kind: string(s.Kind), Status: string(sr.Status),
		Detail: "reused from the saved run", Attempt: sr.Attempts, DurationMS: sr.DurationMS})
	exit := false
	if e := s.C().EarlyExitIf; e != nil && sr.Status != StepSkipped {
		exit, _ = e.Holds(scope{st: x.st}.exprEnv(e.Names))
	}
	return &sr, exit
}

// checkRerun refuses to resume over a non-idempotent step that started
// and did not finish, unless the caller named it in Rerun.
func (l *Local) checkRerun(c *chain.Chain, req Request) error {
	var steps []string
	for _, s := range c.Steps {
		if !req.Started[s.ID] || req.Rerun[s.ID] || !needsConfirmation(s) {
			continue
		}
		if rec, ok := req.Resume[s.ID]; ok && rec.Reusable() {
			continue
		}
		steps = append(steps, s.ID)
	}
	// the steps of called chains, saved as CALLER/STEP
	for id := range req.Started {
		if strings.Contains(id, "/") && !req.Rerun[id] {
			if rec, ok := req.Resume[id]; !ok || !rec.Reusable() {
				steps = append(steps, id)
			}
		}
	}
	sort.Strings(steps)
	if len(steps) > 0 {
		return &RerunError{Steps: steps}
	}
	return nil
}

// needsConfirmation reports whether a step must not run again without a
// person confirming it: it is marked idempotent: false. (A chain step's
// callee saves its own steps, each confirmed on its own.)
func needsConfirmation(s *chain.Step) bool {
	return s.Idempotent != nil && !*s.Idempotent
}
