package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// The run of the workflow a workflow step names (the kind is
// body_workflow.go; as a workflow's executor or task, the flow driver
// runs it through prepareWorkflow, flow_sub.go), and the check before
// anything runs.

// RunWorkflow runs the workflow the step names, over the inputs its
// use.inputs (or input:) give, as a nested run whose id extends this
// one's, to its end, a pause or a failure. The error (permanent) is one
// that kept it from starting.
func (a *Attempt) RunWorkflow(ctx context.Context) (*record.Result, error) {
	return a.x.callWorkflow(ctx, a.s, a.sc, SubCall{})
}

// SubCall is how a workflow step goes on with a workflow it runs: from
// its saved transitions, taking the caller's decision there.
type SubCall struct {
	History []record.TransitionRecord
	Take    string
	Args    map[string]any
	Acks    []string
	Journal record.Journal
	Human   response.Decider
}

// workflowOf finds the workflow a workflow step names: one of its own
// file, else through the engine's resolver (the chains directory).
func (l *Local) workflowOf(c *chain.Chain, s *chain.Step, r WorkflowResolver) (*chain.Chain, error) {
	if w := c.Sibling(s.Workflow().DefinitionID); w != nil {
		return w, nil
	}
	if r == nil {
		return nil, fmt.Errorf("no workflow of %s is named %s, and no chains directory is open to find it in", c.File, s.Workflow().DefinitionID)
	}
	return r(s.Workflow().DefinitionID, c.File)
}

// preflightWorkflow checks, before anything runs, that a workflow step's
// workflow exists, is a state workflow, takes the inputs given, and does
// not call back into a workflow on the stack (a cycle, named).
func preflightWorkflow(l *Local, c *chain.Chain, s *chain.Step, r Resolvers, stack []string) error {
	fail := func(format string, args ...any) error {
		return &response.PreflightError{Kind: response.BadCall, File: c.File, Pos: s.At("definitionId"), Step: s.ID, Who: s.Who(), Msg: fmt.Sprintf(format, args...)}
	}
	callee, err := (*Local)(nil).workflowOf(c, s, r.Workflows)
	if err != nil {
		var nf notFound
		if errors.As(err, &nf) {
			dir, known := nf.LookedIn()
			return fail("definitionId %s names no workflow of this file or of %s%s", s.Workflow().DefinitionID, dir, chain.DidYouMean(s.Workflow().DefinitionID, append(c.SiblingNames(), known...)))
		}
		return fail("definitionId %s: %v", s.Workflow().DefinitionID, err)
	}
	if callee.Workflow == nil {
		return fail("definitionId %s is a DAG chain, not a state workflow (run it with kind: chain)", s.Workflow().DefinitionID)
	}
	key := stackKey(callee)
	if i := slices.Index(stack, key); i >= 0 {
		return fail("workflows call each other in a cycle: %s", stackCycle(stack, i, key))
	}
	passed := map[string]string{}
	if in := s.C().Inputs; in != nil {
		for k := range in.Map {
			passed[k] = ""
		}
	}
	if unknown := given.Unknown(callee, passed); len(unknown) > 0 {
		return fail("use.inputs: workflow %s has no input %s (%s)", callee.Name, strings.Join(unknown, ", "), given.Declared(callee))
	}
	err = preflight(l, callee, r, stack)
	var pe *response.PreflightError
	if errors.As(err, &pe) && pe.File != c.File {
		// the fault is in another file: say which call reached it
		pe.Msg += fmt.Sprintf(" (reached from %s:%d, %s of kind: workflow, definitionId %s)", c.File, s.At("definitionId").Line, s.Who(), s.Workflow().DefinitionID)
	}
	return err
}

// callWorkflow runs the workflow a workflow step names, over the inputs
// its use.inputs (or input:) give, as a nested run whose id extends this
// one's, to its end, a pause or a failure.
func (x *Execution) callWorkflow(ctx context.Context, s *chain.Step, sc Scope, call SubCall) (*record.Result, error) {
	d, err := x.PrepareWorkflow(s, sc, call)
	if err != nil {
		return nil, err
	}
	return d.Exec().Run(ctx, d), nil
}

// PrepareWorkflow sets up the run of a workflow step's workflow: its
// inputs, its replayed history and the decision taken there (a --take
// that names none of its links is refused here, before anything runs).
func (x *Execution) PrepareWorkflow(s *chain.Step, sc Scope, call SubCall) (Driver, error) {
	callee, err := x.Engine.workflowOf(x.Chain, s, x.Engine.workflows)
	if err != nil {
		return nil, &permanentError{err}
	}
	args, _ := s.C().Inputs.Resolve(sc.document()).(map[string]any)
	text := make(map[string]string, len(args))
	for k, v := range args {
		if v != nil {
			text[k] = interp.TextOf(v)
		}
	}
	// a value whose type is not the one the callee declares is passed on
	// as it is, with a warning: mcp-flowgate hands a called workflow its
	// inputs as given (its orchestrators pass an object where the callee
	// declares an array with a default), and so is one its enum does
	// not list (its authoring orchestrators pass the goal's text as the
	// kind of definition to emit: meta_orchestrators_e2e.rs, 6af3b47)
	mismatched := map[string]bool{}
	for k, v := range args {
		in := callee.Input(k)
		if v == nil || in == nil {
			continue
		}
		if why := given.Mismatch(in, v, text[k]); why != "" {
			x.Warn(fmt.Sprintf("%s: workflow %s declares input %q %s: passed on as given", s.Who(), callee.Name, k, why))
			mismatched[k] = true
			delete(text, k)
		}
	}
	inputs, typed := text, map[string]any{}
	if !given.Undeclared(callee) {
		if inputs, typed, err = given.ResolveInputsBeside(callee, text, mismatched); err != nil {
			return nil, &permanentError{fmt.Errorf("workflow %s: %v", callee.Name, err)}
		}
	}
	for k, v := range args {
		// a value of no declared type keeps its shape (an object stays one)
		if in := callee.Input(k); v != nil && (in == nil || in.Type == "" || mismatched[k]) {
			typed[k] = v
			if mismatched[k] {
				inputs[k] = interp.TextOf(v)
			}
		}
	}
	st := newStore(inputs)
	st.typed = typed
	req := Request{Trace: x.Req.Trace, Journal: call.Journal, Events: x.Req.Events, History: call.History, Take: call.Take, Args: call.Args, Acks: call.Acks,
		AgentModel: x.Req.AgentModel, Human: call.Human, Dir: x.Req.Dir, OutputDir: x.Req.OutputDir, Grants: x.Req.Grants, Ask: x.Req.Ask,
		Started: x.Req.Started, Rerun: x.Req.Rerun}
	if call.Journal != nil {
		// what its executors' branches and steps saved, as it knows them
		req.Resume = resume.ScopedRecords(x.Req.Resume, s.ID+"/")
	}
	sub := x.Engine.newExecution(callee, x.RunID+"/"+s.ID, st, x.Budget, req, x.secretValues)
	sub.chosenPaths = sub.chosenPaths || x.chosenPaths
	if err := x.inheritEnv(sub); err != nil {
		return nil, &permanentError{err}
	}
	wd, err := workflowDriver()
	if err != nil {
		return nil, err
	}
	return wd.New(sub, req)
}
