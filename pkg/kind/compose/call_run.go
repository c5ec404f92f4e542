package compose

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
)

func init() {
	run.Register(chain.KindChain, run.Runner{
		Run: callChain,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			var with []string
			for k, t := range s.C().With {
				with = append(with, k+"="+v.Keep(t))
			}
			sort.Strings(with)
			p.Action = fmt.Sprintf("chain %s %s", chain.Call(s).Chain, strings.Join(with, " "))
		},
	})
}

// callChain runs the chain a chain step names, with its `with` values as
// inputs, as a nested run whose id extends this one's. Its output is the
// callee's output.
func callChain(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	callee, err := a.FindChain(chain.Call(s).Chain)
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	passed := make(map[string]string, len(chain.Call(s).With))
	for k, t := range s.C().With {
		if passed[k], err = a.Render(t); err != nil {
			return run.Outcome{}, err
		}
	}
	inputs, err := given.ResolveInputs(callee, passed)
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	res, err := a.RunChain(ctx, callee, inputs)
	if err != nil {
		return run.Outcome{}, err
	}
	// the callee's model use is the step's: the caller's result counts it
	used := run.Outcome{Usage: res.Usage}
	if res.Status != record.Succeeded {
		if ctx.Err() != nil {
			return used, ctx.Err()
		}
		return used, fmt.Errorf("chain %s %s: %s", callee.Name, res.Status, res.Error)
	}
	if res.Output != nil {
		used.Value = interp.DataValue(res.Output)
	}
	return pipedOutput(ctx, a, used), nil
}

// pipedOutput is what an OCC pipeline entry passes on of its chain's
// output (chain.Step.PipedOutput): a summary by the run's model, which
// counts as the step's model use, else the output cut with a line saying
// so, with a warning.
func pipedOutput(ctx context.Context, a *run.Attempt, got run.Outcome) run.Outcome {
	s := a.Step()
	text := []rune(got.Value.Text)
	summarize, cut, note := s.PipedOutput(len(text))
	if summarize {
		sum, err := a.With(chain.PipeSummaryLocals[0], got.Value).Ask(ctx, s.ModelStep())
		got.Usage.Add(sum.Usage)
		if err == nil {
			got.Value = sum.Value
			return got
		}
		a.Warn(fmt.Sprintf("step %q: summarize_output: the summary failed (%v): its first %d characters are passed on, as OCC does", s.ID, err, cut))
	}
	if cut == 0 {
		return got
	}
	if !summarize && !strings.HasPrefix(note, "[truncated from") {
		a.Warn(fmt.Sprintf("step %q: the chain's output of %d characters is cut to %d, as OCC's pipeline cuts one without summarize_output", s.ID, len(text), cut))
	}
	got.Value = interp.TextValue(string(text[:cut]) + "\n" + note)
	return got
}
