package run

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

func init() {
	register(chain.KindTransform, kind{
		run: func(x *execution, _ context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			if s.Operation != "" {
				return x.operation(s, sc)
			}
			c := s.C()
			v, err := c.Transform.Eval(sc.valueEnv(c.Transform.Names))
			if err != nil {
				return outcome{}, &permanentError{fmt.Errorf("expr: %w", err)}
			}
			return outcome{value: dataValue(v)}, nil
		},
		plan: func(_ planView, s *chain.Step, p *PlannedStep) {
			p.Action = s.Expr
			if s.Operation != "" {
				p.Action = "operation " + s.Operation
			}
		},
		// a transform task's result is its value
		result: func(f *flow, s *chain.Step, sr *StepResult) (string, bool) {
			if unfinished(sr.Status) {
				return "", false
			}
			v, _ := f.st.get(s.OutputVar)
			return v.Text, true
		},
	})
}
