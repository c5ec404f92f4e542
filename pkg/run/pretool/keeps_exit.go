package pretool

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
)

// keepsExit reads, where the chain's reading keeps a bash pre_tool's
// exit (chain.Reading.ExitKeptWithStderr: OCC's, whose spawnSync's exit
// status is not read, OCC 13d9853 mcp-server/src/pretool-executor.ts), a
// bash pre_tool with stderr: true whose script exited non-zero: its
// value is what the script wrote, its stderr after a [stderr] line, with
// a warning; chainrun's own format fails the pre_tool. Any other
// failure (a signal, a script that could not start) stays err.
func keepsExit(a *run.Attempt, p chain.PreTool, out *run.Outcome, err error) error {
	var ee *executor.ExitError
	if !errors.As(err, &ee) || ee.Signal != "" {
		return err
	}
	a.Warn(fmt.Sprintf("step %q: pre_tool bash (%s) exited with code %d: with stderr: true what it wrote is the value, as OCC keeps it (chainrun's own format fails the pre_tool)", a.Step().ID, p.InjectAs, ee.Code))
	out.Value = interp.TextValue(strings.TrimSpace(out.Stdout))
	return nil
}
