package run

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A noop step does nothing and succeeds with an empty value: a transition
// that only moves the run, or a placeholder.
func init() {
	register(chain.KindNoop, kind{
		run: func(*execution, context.Context, *chain.Step, scope, *tries) (outcome, error) {
			return outcome{}, nil
		},
		plan: func(_ planView, _ *chain.Step, p *PlannedStep) { p.Action = "nothing (noop)" },
	})
}
