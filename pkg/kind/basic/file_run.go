package basic

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/record"
)

func init() {
	run.Register(chain.KindFile, run.Runner{
		Run: func(_ context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			path := s.C().Path
			if arg := s.C().PathJSON; arg != nil {
				p, err := a.Select(*arg)
				if err != nil {
					return run.Outcome{}, err
				}
				path = chain.Literal(p)
			}
			return proc.ReadFile(a, path, s.C().Cwd, s.C().PathJSON != nil)
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			if a := s.C().PathJSON; a != nil {
				p.Action = "read " + a.Raw
				return
			}
			p.Action = "read " + v.Keep(s.C().Path)
		},
	})
}
