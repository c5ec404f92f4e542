package run

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
)

func init() {
	Register(chain.KindFile, Runner{
		Run: func(_ context.Context, a *Attempt) (Outcome, error) {
			s := a.Step()
			path := s.C().Path
			if arg := s.C().PathJSON; arg != nil {
				p, err := a.Select(*arg)
				if err != nil {
					return Outcome{}, err
				}
				path = chain.Literal(p)
			}
			return readFile(a, path, s.C().Cwd, s.C().PathJSON != nil)
		},
		Plan: func(v PlanView, s *chain.Step, p *PlannedStep) {
			if a := s.C().PathJSON; a != nil {
				p.Action = "read " + a.Raw
				return
			}
			p.Action = "read " + v.Keep(s.C().Path)
		},
	})
}

// readFile reads a file, up to the in-memory cap; pre_tools use it too.
// fromData says path was a $.-path, rendered from the run's data.
func readFile(a *Attempt, path, cwd *chain.Template, fromData bool) (Outcome, error) {
	p, err := a.Render(path)
	if err != nil {
		return Outcome{}, err
	}
	base, err := a.Dir(cwd)
	if err != nil {
		return Outcome{}, err
	}
	jail := a.Jail()
	if jail == "" && a.Confines(path, fromData) {
		jail = base // a path a decision may have chosen stays under the step's directory
	}
	f, err := OpenRegular(jail, base, p)
	if err != nil {
		return Outcome{}, err
	}
	defer f.Close()
	if jail == "" && !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	data, err := io.ReadAll(io.LimitReader(f, executor.MaxCapture+1))
	if err != nil {
		return Outcome{}, fmt.Errorf("reading %s: %w", p, err)
	}
	if len(data) > executor.MaxCapture {
		return Outcome{}, Permanent(fmt.Errorf("%s is larger than %d MiB, the most a file step reads", p, executor.MaxCapture>>20))
	}
	return Outcome{Value: TextValue(string(data))}, nil
}
