package run

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

func init() {
	register(chain.KindChain, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			return x.call(ctx, s, sc)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			var with []string
			for k, t := range s.C().With {
				with = append(with, k+"="+v.keep(t))
			}
			sort.Strings(with)
			p.Action = fmt.Sprintf("chain %s %s", s.Chain, strings.Join(with, " "))
		},
	})
}

// call runs the chain a chain step names, with its `with` values as
// inputs, as a nested run whose id extends this one's. Its output is the
// callee's output.
func (x *execution) call(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	callee, err := x.l.chains(s.Chain, x.c.File)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	given := make(map[string]string, len(s.With))
	for k, t := range s.C().With {
		if given[k], err = x.render(t, sc); err != nil {
			return outcome{}, err
		}
	}
	inputs, err := ResolveInputs(callee, given)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	// the callee's steps are saved, and kept on resume, as CALLER/STEP
	prefix := s.ID + "/"
	sub := Request{Journal: prefixed(x.req.Journal, prefix), Resume: scopedRecords(x.req.Resume, prefix), Started: map[string]bool{}, Rerun: map[string]bool{},
		Dir: x.req.Dir, OutputDir: x.req.OutputDir, Grants: x.req.Grants, Ask: x.req.Ask, Events: x.req.Events}
	for id := range x.req.Started {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			sub.Started[inner] = true
		}
	}
	for id := range x.req.Rerun {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			sub.Rerun[inner] = true
		}
	}
	callx := x.l.newExecution(callee, x.runID+"/"+s.ID, newStore(inputs), x.budget, sub, x.secretValues)
	callx.chosenPaths = callx.chosenPaths || x.chosenPaths
	if err := x.inheritEnv(callx); err != nil {
		return outcome{}, &permanentError{err}
	}
	res := callx.run(ctx, &dagDriver{x: callx})
	// the callee's model use is the step's: the caller's result counts it
	used := outcome{usage: res.Usage}
	if res.Status != Succeeded {
		if ctx.Err() != nil {
			return used, ctx.Err()
		}
		return used, fmt.Errorf("chain %s %s: %s", callee.Name, res.Status, res.Error)
	}
	if res.Output != nil {
		used.value = DataValue(res.Output)
	}
	return x.pipedOutput(ctx, s, sc, used), nil
}

// pipedOutput is what an OCC pipeline entry passes on of its chain's
// output (chain.Step.PipedOutput): a summary by the run's model, which
// counts as the step's model use, else the output cut with a line saying
// so, with a warning.
func (x *execution) pipedOutput(ctx context.Context, s *chain.Step, sc scope, got outcome) outcome {
	text := []rune(got.value.Text)
	summarize, cut, note := s.PipedOutput(len(text))
	if summarize {
		sum, err := x.ask(ctx, s.ModelStep(), sc.with(chain.PipeSummaryLocals[0], got.value))
		got.usage.Add(sum.usage)
		if err == nil {
			got.value = sum.value
			return got
		}
		x.warn(fmt.Sprintf("step %q: summarize_output: the summary failed (%v): its first %d characters are passed on, as OCC does", s.ID, err, cut))
	}
	if cut == 0 {
		return got
	}
	if !summarize && !strings.HasPrefix(note, "[truncated from") {
		x.warn(fmt.Sprintf("step %q: the chain's output of %d characters is cut to %d, as OCC's pipeline cuts one without summarize_output", s.ID, len(text), cut))
	}
	got.value = TextValue(string(text[:cut]) + "\n" + note)
	return got
}

// preflightCall checks, before anything runs, that a chain step can call
// its chain: it exists, takes the inputs given, is not a workflow, and
// does not call back into a chain on the stack.
func preflightCall(l *Local, c *chain.Chain, s *chain.Step, r Resolvers, stack []string) error {
	resolve := r.Chains
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
	callee, err := resolve(s.Chain, c.File)
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
			return fail("%s: %s", s.WithField(), ie.Msg)
		}
		return fail("%s: %v", s.WithField(), err)
	}
	return preflight(l, callee, r, stack)
}
