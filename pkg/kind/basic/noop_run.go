package basic

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A noop step does nothing and succeeds with an empty value: a transition
// that only moves the run, or a placeholder.
func init() {
	run.Register(chain.KindNoop, run.Runner{
		Run: func(context.Context, *run.Attempt) (run.Outcome, error) {
			return run.Outcome{}, nil
		},
		Plan: func(_ run.PlanView, _ *chain.Step, p *record.PlannedStep) { p.Action = "nothing (noop)" },
	})
}
