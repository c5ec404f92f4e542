package proc

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/confine"
)

// ReadFile reads a file, up to the in-memory cap: a file step's read,
// and a pre_tool's.
// fromData says path was a $.-path, rendered from the run's data.
func ReadFile(a *run.Attempt, path, cwd *chain.Template, fromData bool) (run.Outcome, error) {
	p, err := a.Render(path)
	if err != nil {
		return run.Outcome{}, err
	}
	base, err := a.Dir(cwd)
	if err != nil {
		return run.Outcome{}, err
	}
	jail := a.PathJail(path, fromData, base)
	f, err := confine.OpenRegular(jail, base, p)
	if err != nil {
		return run.Outcome{}, run.Refused(err)
	}
	defer f.Close()
	if jail == "" && !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	data, err := io.ReadAll(io.LimitReader(f, executor.MaxCapture+1))
	if err != nil {
		return run.Outcome{}, fmt.Errorf("reading %s: %w", p, err)
	}
	if len(data) > executor.MaxCapture {
		return run.Outcome{}, run.Permanent(fmt.Errorf("%s is larger than %d MiB, the most a file step reads", p, executor.MaxCapture>>20))
	}
	return run.Outcome{Value: interp.TextValue(string(data))}, nil
}
