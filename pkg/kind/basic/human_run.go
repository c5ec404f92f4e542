package basic

import (
	"context"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// A human step asks a person. As a workflow executor it records the
// request, its queue and when it was made, and succeeds: the person
// answers at the decision point the transition leads to, where the run
// waits (chainrun approvals lists it). In a DAG chain it cannot run (a
// chain has no decision points): refused before the run starts; a dry
// run shows its prompt.
func init() {
	run.Register(chain.KindHuman, run.Runner{
		Run: func(_ context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			req := map[string]any{"requested": a.Now().UTC().Format(time.RFC3339)}
			if Human(s).Queue != "" {
				req["queue"] = Human(s).Queue
			}
			if p := s.C().Prompt; p != nil {
				text, err := p.Render(a.Resolver(), a.Lenient())
				if err != nil {
					return run.Outcome{}, err
				}
				req["prompt"] = text
			}
			return run.Outcome{Value: interp.Value{Data: req, Text: interp.TextOf(req)}}, nil
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = "ask a person"
			if Human(s).Queue != "" {
				p.Action += " (queue " + Human(s).Queue + ")"
			}
			if s.C().Prompt != nil {
				p.Action += ": " + v.Keep(s.C().Prompt)
			}
		},
		Admit: func(_ *run.Local, c *chain.Chain, s *chain.Step) error {
			if c.Workflow != nil {
				return nil
			}
			return &response.PreflightError{Kind: response.Unsupported, File: c.File, Pos: s.At("type"), Step: s.ID, Msg: "a human step (a decision point)"}
		},
	})
}
