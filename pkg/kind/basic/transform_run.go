package basic

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

func init() {
	run.Register(chain.KindTransform, run.Runner{
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			if Transform(s).Operation != "" {
				return operation(a)
			}
			c := s.C()
			v, err := c.Transform.EvalContext(ctx, a.ValueEnv(c.Transform.Names))
			if err != nil {
				if ctx.Err() != nil {
					return run.Outcome{}, err
				}
				return run.Outcome{}, run.Permanent(fmt.Errorf("expr: %w", err))
			}
			return run.Outcome{Value: interp.DataValue(v)}, nil
		},
		Plan: func(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = Transform(s).Expr
			if Transform(s).Operation != "" {
				p.Action = "operation " + Transform(s).Operation
			}
		},
		// a transform task's result is its value
		Result: func(read func(string) (interp.Value, bool), s *chain.Step, sr *record.StepResult) (string, bool) {
			if record.Unfinished(sr.Status) {
				return "", false
			}
			v, _ := read(s.OutputVar)
			return v.Text, true
		},
	})
}
