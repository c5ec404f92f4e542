package basic

import (
	"context"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/record"
)

func init() {
	run.Register(chain.KindCLI, run.Runner{
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			c := a.Step().C()
			out, err := proc.RunCommand(ctx, a, c.Command, c.Args, c.Run, c.Env, c.Cwd)
			return run.ExitCode(a.Step(), out, err)
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			cs := s.C()
			if cs.Run != nil {
				p.Action = cs.Run.RenderShellForDisplay(v.Resolver())
				return
			}
			argv := []string{v.Keep(cs.Command)}
			for _, a := range cs.Args {
				if a.JSONPath != nil {
					val, err := v.Arg(a)
					if err != nil {
						val = a.Raw
					}
					argv = append(argv, chain.ShellQuote(val))
					continue
				}
				argv = append(argv, chain.ShellQuote(v.Keep(a.Template)))
			}
			p.Action = strings.Join(argv, " ")
		},
	})
}
