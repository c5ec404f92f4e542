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
	register(chain.KindFile, kind{
		run: func(x *execution, _ context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			path := s.C().Path
			if a := s.C().PathJSON; a != nil {
				p, err := x.selectArg(*a, sc)
				if err != nil {
					return outcome{}, err
				}
				path = chain.Literal(p)
			}
			return x.file(s, sc, path, s.C().Cwd, s.C().PathJSON != nil)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			if a := s.C().PathJSON; a != nil {
				p.Action = "read " + a.Raw
				return
			}
			p.Action = "read " + v.keep(s.C().Path)
		},
	})
}

// file reads a file, up to the in-memory cap; pre_tools use it too.
// fromData says path was a $.-path, rendered from the run's data.
func (x *execution) file(s *chain.Step, sc scope, path, cwd *chain.Template, fromData bool) (outcome, error) {
	p, err := x.render(path, sc)
	if err != nil {
		return outcome{}, err
	}
	base, err := x.dir(cwd, sc)
	if err != nil {
		return outcome{}, err
	}
	jail := sc.jail
	if jail == "" && x.confines(path, fromData) {
		jail = base // a path a decision may have chosen stays under the step's directory
	}
	f, err := openRegular(jail, base, p)
	if err != nil {
		return outcome{}, err
	}
	defer f.Close()
	if jail == "" && !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	data, err := io.ReadAll(io.LimitReader(f, executor.MaxCapture+1))
	if err != nil {
		return outcome{}, fmt.Errorf("reading %s: %w", p, err)
	}
	if len(data) > executor.MaxCapture {
		return outcome{}, &permanentError{fmt.Errorf("%s is larger than %d MiB, the most a file step reads", p, executor.MaxCapture>>20)}
	}
	return outcome{value: textValue(string(data))}, nil
}
