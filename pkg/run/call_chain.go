package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// A chain step's call of another chain, as the engine runs it (the kind
// is body_call.go): the nested run, and the check before anything runs.

// FindChain is the chain a chain step names, found as the engine finds
// chains (the step's file's directory, the chains directory).
func (a *Attempt) FindChain(name string) (*chain.Chain, error) {
	return a.x.Engine.chains(name, a.x.Chain.File)
}

// RunChain runs callee over inputs as a nested run of this step: its id
// extends this run's (RUN/STEP), its steps are saved, and kept on resume,
// as STEP/ID, and it shares this run's budget, secrets, grants and
// events. The error (permanent) is one that kept it from starting; how
// it ended is its Result.
func (a *Attempt) RunChain(ctx context.Context, callee *chain.Chain, inputs map[string]string) (*record.Result, error) {
	x, s := a.x, a.s
	// the callee's steps are saved, and kept on resume, as CALLER/STEP
	prefix := s.ID + "/"
	sub := Request{Trace: x.Req.Trace, Journal: prefixed(x.Req.Journal, prefix), Resume: resume.ScopedRecords(x.Req.Resume, prefix), Started: map[string]bool{}, Rerun: map[string]bool{},
		Dir: x.Req.Dir, OutputDir: x.Req.OutputDir, Grants: x.Req.Grants, Ask: x.Req.Ask, Events: x.Req.Events}
	for id := range x.Req.Started {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			sub.Started[inner] = true
		}
	}
	for id := range x.Req.Rerun {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			sub.Rerun[inner] = true
		}
	}
	callx := x.Engine.newExecution(callee, x.RunID+"/"+s.ID, newStore(inputs), x.Budget, sub, x.secretValues)
	callx.chosenPaths = callx.chosenPaths || x.chosenPaths
	if err := x.inheritEnv(callx); err != nil {
		return nil, &permanentError{err}
	}
	return callx.Run(ctx, &dagDriver{x: callx}), nil
}

// preflightCall checks, before anything runs, that a chain step can call
// its chain: it exists, takes the inputs given, is not a workflow, and
// does not call back into a chain on the stack.
func preflightCall(l *Local, c *chain.Chain, s *chain.Step, r Resolvers, stack []string) error {
	resolve := r.Chains
	fail := func(format string, args ...any) error {
		return &response.PreflightError{Kind: response.BadCall, File: c.File, Pos: s.At("chain"), Step: s.ID, Msg: fmt.Sprintf(format, args...)}
	}
	if resolve == nil {
		return fail("calling chain %q needs a chain catalog", chain.Call(s).Chain)
	}
	callee, err := resolve(chain.Call(s).Chain, c.File)
	if err != nil {
		return fail("cannot call chain %q: %v", chain.Call(s).Chain, err)
	}
	// by name or by path (absolute, relative, through ..), a callee
	// already on the stack would call itself for ever
	if key := stackKey(callee); slices.Contains(stack, key) {
		return fail("chain %q calls itself: %s", callee.Name, stackCycle(stack, 0, key))
	}
	if callee.Workflow != nil {
		return fail("%q is a state workflow: a chain step calls DAG chains (a workflow may pause for a decision, which a step cannot)", chain.Call(s).Chain)
	}
	passed := map[string]string{}
	for k := range chain.Call(s).With {
		passed[k] = "set"
	}
	if _, err := given.ResolveInputs(callee, passed); err != nil {
		var ie *given.InputError
		if errors.As(err, &ie) {
			return fail("%s: %s", chain.WithField(s), ie.Msg)
		}
		return fail("%s: %v", chain.WithField(s), err)
	}
	return preflight(l, callee, r, stack)
}
