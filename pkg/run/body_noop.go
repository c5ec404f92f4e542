package run

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A noop step does nothing and succeeds with an empty value: a transition
// that only moves the run, or a placeholder.
func init() {
	Register(chain.KindNoop, Runner{
		Run: func(context.Context, *Attempt) (Outcome, error) {
			return Outcome{}, nil
		},
		Plan: func(_ PlanView, _ *chain.Step, p *PlannedStep) { p.Action = "nothing (noop)" },
	})
}
