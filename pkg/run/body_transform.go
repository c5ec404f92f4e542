package run

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

func init() {
	Register(chain.KindTransform, Runner{
		Run: func(_ context.Context, a *Attempt) (Outcome, error) {
			s := a.Step()
			if s.Operation != "" {
				return operation(a)
			}
			c := s.C()
			v, err := c.Transform.Eval(a.ValueEnv(c.Transform.Names))
			if err != nil {
				return Outcome{}, Permanent(fmt.Errorf("expr: %w", err))
			}
			return Outcome{Value: DataValue(v)}, nil
		},
		Plan: func(_ PlanView, s *chain.Step, p *PlannedStep) {
			p.Action = s.Expr
			if s.Operation != "" {
				p.Action = "operation " + s.Operation
			}
		},
		// a transform task's result is its value
		Result: func(read func(string) (Value, bool), s *chain.Step, sr *StepResult) (string, bool) {
			if Unfinished(sr.Status) {
				return "", false
			}
			v, _ := read(s.OutputVar)
			return v.Text, true
		},
	})
}
