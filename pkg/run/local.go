package run

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/mask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// Run executes the chain and returns its result. See Engine. A DAG chain
// and a state workflow share one execution (inputs, variables, journal,
// resume, result); their drivers differ only in how they choose what runs
// next.
func (l *Local) Run(ctx context.Context, req Request) (*record.Result, error) {
	x, d, err := l.prepare(req)
	if err != nil {
		return nil, err
	}
	return x.Run(ctx, d), nil
}

// Refusal is the error Run would refuse req with before anything runs
// (inputs, a --take the run does not offer or whose guard does not hold,
// arguments its inputSchema refuses, an --ack of nothing to acknowledge),
// or nil: a durable engine checks a decision with it before the decision
// is recorded, so that a refused one leaves the run as it stood.
func (l *Local) Refusal(req Request) error {
	_, _, err := l.prepare(req)
	return err
}

// prepare checks req and sets up its execution and driver; nothing runs.
func (l *Local) prepare(req Request) (*Execution, Driver, error) {
	c := req.Chain
	if c.Empty() {
		// before its inputs, as OCC's executor judges it
		return nil, nil, &response.EmptyChainError{Chain: c.Name, File: c.File}
	}
	inputs, typed, err := given.ResolveTyped(c, req.Inputs)
	if err != nil {
		return nil, nil, err
	}
	runID, err := l.admit(req)
	if err != nil {
		return nil, nil, err
	}
	var env map[string]string
	if l.Remote == nil {
		// a durable engine's workers read them, where the steps run
		if env, err = l.readDotenv(c, cmp.Or(req.Dir, l.dir)); err != nil {
			return nil, nil, err
		}
	}
	st := newStore(inputs)
	st.typed = typed
	x := l.newExecution(c, runID, st, newBudget(c, req, l.prices), req, nil)
	x.setEnv(env)
	x.inputValueNotes(req.Inputs)
	if c.Workflow == nil {
		if err := resume.CheckGateTake(c, req.Take, req.Resume); err != nil {
			return nil, nil, err
		}
		if len(req.Acks) > 0 {
			return nil, nil, &response.AckError{Subject: req.Acks[0], Msg: "the run is a DAG chain: acknowledgments are read by a workflow's guards"}
		}
		return x, &dagDriver{x: x}, nil
	}
	wd, err := workflowDriver()
	if err != nil {
		return nil, nil, err
	}
	f, err := wd.New(x, req)
	if err != nil {
		return nil, nil, err
	}
	return x, f, nil
}

// admit checks, before anything runs, every step's model and callee and
// any unconfirmed rerun, then names the run.
func (l *Local) admit(req Request) (string, error) {
	c := req.Chain
	if l.Remote != nil {
		// checked where the run was started; the workers hold the models.
		// A retry over a non-idempotent step needs --rerun as here.
		if err := l.checkRerun(c, req); err != nil {
			return "", err
		}
		return cmp.Or(req.RunID, NewRunID(l.Now())), nil
	}
	if err := preflight(l, c, Resolvers{Chains: l.chains, Workflows: l.workflows, Scripts: l.Scripts}, nil); err != nil {
		return "", err
	}
	if c.Workflow != nil {
		wd, err := workflowDriver()
		if err != nil {
			return "", err
		}
		if err := wd.Admit(l, c, req); err != nil {
			return "", err
		}
	}
	if err := l.checkRerun(c, req); err != nil {
		return "", err
	}
	if req.RunID != "" {
		return req.RunID, nil
	}
	return NewRunID(l.Now()), nil
}

// newExecution sets up one run of a checked chain (a DAG chain, a
// workflow, or a chain a step calls) over the given variable store.
func (l *Local) newExecution(c *chain.Chain, runID string, st *Values, b *llm.Budget, req Request, inheritedSecrets []string) *Execution {
	secrets := mask.Secrets(c, st.inputs, inheritedSecrets)
	req.Resume, _ = resume.KeptSteps(c, req.Resume)
	return &Execution{Engine: l, Chain: c, RunID: runID, Vars: st, results: map[string]*record.StepResult{},
		Secrets: mask.New(secrets), secretValues: secrets, chosenPaths: req.ChosenInputs || takesArguments(c.Workflow), itemSlots: make(chan struct{}, l.parallel), Budget: b, Req: req}
}

// CheckCalls reports the first chain step of c (or of a chain it calls)
// whose callee is missing, takes other inputs, or calls back into a chain
// on the stack, the first workflow step whose workflow is missing or
// calls back into one on the stack, and the first script step whose
// script is nowhere, as a positioned finding (a *chain.ValidationError).
// `validate` uses it; `run` checks the same before starting.
func CheckCalls(c *chain.Chain, r Resolvers) error {
	r.pending = func(*response.PreflightError) {} // PendingDefinitions reports them
	err := preflight(nil, c, r, nil)
	var ce *response.PreflightError
	if errors.As(err, &ce) && ce.Kind == response.BadCall {
		return &chain.ValidationError{Diagnostics: []chain.Diagnostic{{File: ce.File, Pos: ce.Pos, Message: fmt.Sprintf("%s: %s", ce.Subject(), ce.Msg)}}}
	}
	return err
}

// Resolvers find what steps call outside their own file: chains by name,
// workflows by definitionId, scripts by subject.
type Resolvers struct {
	Chains    ChainResolver
	Workflows WorkflowResolver
	Scripts   ScriptResolver
	// pending, when set, collects the pending definitions a check finds
	// instead of stopping at them (PendingDefinitions).
	pending func(*response.PreflightError)
}

// Warnings are what would stop a valid chain when it runs here, as
// validate shows them: a human step, which cannot run yet, and each step
// whose model cannot be used on this machine (modelErrs, from
// Engine.CheckModels).
func Warnings(c *chain.Chain, modelErrs []error) []chain.Diagnostic {
	out := ask.FormatWarnings(c)
	for _, st := range c.Steps {
		if st.Kind == chain.KindHuman && c.Workflow == nil {
			out = append(out, chain.Diagnostic{File: c.File, Pos: st.At("type"), Warning: true,
				Message: fmt.Sprintf("step %q: a human step cannot run yet; in a workflow, a transition with actor: human asks a person (running it would stop here)", st.ID)})
		}
	}
	for _, err := range modelErrs {
		var me *response.PreflightError
		if errors.As(err, &me) && me.Kind == response.BadModel {
			out = append(out, chain.Diagnostic{File: me.File, Pos: me.Pos, Warning: true,
				Message: fmt.Sprintf("step %q: %s (running it would stop here)", me.Step, me.Msg)})
		}
	}
	return out
}

// ModelErrors are the findings of modelErrs (CheckModels) that make a
// chain invalid wherever it runs: requests its models' APIs refuse.
func ModelErrors(modelErrs []error) []chain.Diagnostic {
	var out []chain.Diagnostic
	for _, err := range modelErrs {
		var me *response.PreflightError
		if errors.As(err, &me) && me.Kind == response.BadParams {
			out = append(out, chain.Diagnostic{File: me.File, Pos: me.Pos, Message: fmt.Sprintf("step %q: %s", me.Step, me.Msg)})
		}
	}
	return out
}

// preflight finds, before any step runs, every step that cannot run: chain
// steps that cannot call their chain and, when l is set (a run, not a
// validation), agent steps without a usable model and features not
// supported yet.
func preflight(l *Local, c *chain.Chain, r Resolvers, stack []string) error {
	stack = append(stack, stackKey(c))
	var first error
	if workflows.Preflight != nil && c.Workflow != nil {
		first = workflows.Preflight(c, r)
	}
	unneeded := unreachableSteps(c)
	outer := r
	c.Walk(func(s *chain.Step) {
		if first != nil {
			return
		}
		r := outer
		if unneeded[s] {
			// no run reaches it: what it names but nothing provides is
			// a warning, never a refusal (mcp-flowgate runs such a file)
			r.pending = func(e *response.PreflightError) {
				if outer.pending != nil {
					e.Unreachable = true
					outer.pending(e)
				}
			}
		}
		switch {
		case s.Unregistered() != "":
			first = preflightUnregistered(c, s, r)
		case s.Kind == chain.KindChain:
			first = preflightCall(l, c, s, r, stack)
		case s.Kind == chain.KindWorkflow:
			first = preflightWorkflow(l, c, s, r, stack)
		case s.Kind == chain.KindScript:
			first = preflightScript(c, s, r)
		case s.Kind == chain.KindMCP, s.Kind == chain.KindHTTP:
			first = preflightMCP(c, s, r)
		}
		if first != nil || l == nil || unneeded[s] {
			return
		}
		if k, ok := Kinds[s.Kind]; ok && k.Admit != nil {
			first = k.Admit(l, c, s)
		}
	})
	return first
}

// unreachableSteps are the steps of a workflow's states that no path
// from its initialState reaches, with everything nested in them.
func unreachableSteps(c *chain.Chain) map[*chain.Step]bool {
	if c.Workflow == nil {
		return nil
	}
	out := map[*chain.Step]bool{}
	var mark func(s *chain.Step)
	mark = func(s *chain.Step) {
		out[s] = true
		for _, n := range s.Nested() {
			mark(n)
		}
	}
	for _, s := range c.Workflow.Unreachable() {
		mark(s)
	}
	return out
}

// stackKey is how the stack of calls names a chain: by its file, made
// absolute, and its name (a chain step may name its callee or give its
// path, and one name may be a workflow of several files); by its name
// alone when it has no file.
func stackKey(c *chain.Chain) string {
	if c.File == "" {
		return "#" + c.Name
	}
	file := c.File
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	return file + "#" + c.Name
}

// stackCycle is the calls from the first on the stack named key to key
// again, by their chains' names: how a cycle is shown.
func stackCycle(stack []string, from int, key string) string {
	var names []string
	for _, k := range append(slices.Clone(stack[from:]), key) {
		_, name, _ := strings.Cut(k, "#")
		names = append(names, name)
	}
	return strings.Join(names, " → ")
}

// reuse keeps a step's result from an earlier attempt of the run.
func (x *Execution) reuse(s *chain.Step, rec record.StepRecord) (*record.StepResult, bool) {
	x.restore(s, rec)
	sr := rec.Result
	sr.Reused = true
	x.Emit(event.Event{Type: event.StepFinished, Step: s.ID, Kind: string(s.Kind), Status: sr.Status,
		Detail: "reused from the saved run", Attempt: sr.Attempts, DurationMS: sr.DurationMS})
	exit := false
	if e := s.C().EarlyExitIf; e != nil && sr.Status != record.StepSkipped {
		exit, _ = e.Holds(Scope{Vars: x.Vars}.ExprEnv(e.Names))
	}
	return &sr, exit
}

// checkRerun refuses to resume over a non-idempotent step that started
// and did not finish, or that finished but must run again because a step
// it depends on does, unless the caller named it in Rerun.
func (l *Local) checkRerun(c *chain.Chain, req Request) error {
	var steps []string
	for _, s := range c.Steps {
		if !req.Started[s.ID] || req.Rerun[s.ID] || !response.NeedsConfirmation(s) || slices.Contains(steps, s.ID) {
			continue
		}
		if rec, ok := req.Resume[s.ID]; ok && rec.Reusable() {
			continue
		}
		steps = append(steps, s.ID)
	}
	// finished ones that run again because a step they depend on does
	_, redone := resume.KeptSteps(c, req.Resume)
	for _, id := range redone {
		if s := c.Step(id); s != nil && !req.Rerun[id] && response.NeedsConfirmation(s) {
			steps = append(steps, id)
		}
	}
	// the steps of called chains, saved as CALLER/STEP, and the
	// branches and steps of parallel and pipeline steps, STEP[i], unless
	// the step they are in is kept whole
	for id := range req.Started {
		owner, nested := resume.OwnerOf(id)
		if !nested || req.Rerun[id] {
			continue
		}
		if rec, ok := req.Resume[owner]; ok && rec.Reusable() && !slices.Contains(redone, owner) {
			continue
		}
		if rec, ok := req.Resume[id]; !ok || !rec.Reusable() {
			steps = append(steps, id)
		}
	}
	sort.Strings(steps)
	if len(steps) == 0 {
		return nil
	}
	e := &response.RerunError{Steps: steps, Take: req.Take}
	if e.Take == "" && c.Workflow != nil {
		e.Take = decisionNamed(c.Workflow, steps)
	}
	if req.RunID != "" {
		e.Command = response.ResumeCommand(req.RunID, e.Take, steps...)
		if t := transitionNamed(c.Workflow, e.Take); t != nil {
			e.Command += response.ArgFlags(t.NeededArgs())
		}
	}
	return e
}

// transitionNamed is the first transition of w named name, nil when
// there is none (or no workflow).
func transitionNamed(w *chain.Workflow, name string) *chain.Transition {
	if w == nil || name == "" {
		return nil
	}
	for _, s := range w.States {
		if t := s.Transition(name); t != nil {
			return t
		}
	}
	return nil
}

// decisionNamed is the first of names that is a transition someone
// chooses (a human or agent link): resuming it needs --take as well as
// --rerun, since the run waits at that decision again.
func decisionNamed(w *chain.Workflow, names []string) string {
	for _, n := range names {
		// a branch's or a called workflow's step waits with its owner
		n, _ = resume.OwnerOf(n)
		for _, s := range w.States {
			for _, t := range s.Transitions {
				if t.Name == n && t.Actor != chain.ActorDeterministic {
					return n
				}
			}
		}
	}
	return ""
}
