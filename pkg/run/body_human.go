package run

import "github.com/chainrun/chainrun/pkg/chain"

// A human step is accepted by the format but cannot run: in a workflow, a
// transition with actor: human asks a person. It is refused before the run
// starts; a dry run shows its prompt.
func init() {
	register(chain.KindHuman, kind{
		plan: func(v planView, s *chain.Step, p *PlannedStep) { p.Action = v.keep(s.C().Prompt) },
		admit: func(_ *Local, c *chain.Chain, s *chain.Step) error {
			return &PreflightError{Kind: Unsupported, File: c.File, Pos: s.At("type"), Step: s.ID, Msg: "a human step (a decision point)"}
		},
	})
}
