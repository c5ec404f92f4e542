package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/run"
)

// RunCommand runs a process: argv with no shell, or a script whose
// interpolated values reach it only as environment variables (big ones
// on pipes). cli and script steps run it, and so do pre_tools.
func RunCommand(ctx context.Context, a *run.Attempt, command *chain.Template, args []chain.Arg, script *chain.Template, env map[string]chain.Arg, cwd *chain.Template) (run.Outcome, error) {
	s := a.Step()
	cmd := executor.Command{Grace: a.Grace(), Force: interrupt.Force(ctx), Bin: a.BinDir()}
	var err error
	if cmd.Dir, err = a.Dir(cwd); err != nil {
		return run.Outcome{}, err
	}
	var values []string
	if script != nil {
		if cmd.Script, values, err = script.RenderShell(a.Resolver(), a.Lenient()); err != nil {
			return run.Outcome{}, run.Permanent(err)
		}
		if cmd.Script, values, cmd.Feeds, err = feedBigValues(cmd.Script, values); err != nil {
			return run.Outcome{}, run.Permanent(err)
		}
	} else {
		name, err := a.Render(command)
		if err != nil {
			return run.Outcome{}, err
		}
		cmd.Argv = []string{name}
		for _, arg := range args {
			v, err := a.Arg(arg)
			if err != nil {
				return run.Outcome{}, err
			}
			cmd.Argv = append(cmd.Argv, v)
		}
	}
	cmd.Env = a.Environ("CHAINRUN_RUN_ID="+a.RunID(), "CHAINRUN_STEP_ID="+s.ID)
	if tc, ok := a.Trace(ctx); ok {
		cmd.Env = append(cmd.Env, tc.Env()...)
	}
	if cmd.Bin != "" {
		// scripts find the chain's own commands too
		cmd.Env = append(cmd.Env, "PATH="+cmd.Bin+string(os.PathListSeparator)+a.PathEnv())
	}
	for k, arg := range env {
		v, err := a.Arg(arg)
		if err != nil {
			return run.Outcome{}, err
		}
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if k := a.IdempotencyKey(); k != "" {
		// after env, as mcp-flowgate's cli executor sets it
		cmd.Env = append(cmd.Env, run.KeyEnv+"="+k)
	}
	// last, so that nothing in env can replace an interpolated value
	cmd.Env = append(cmd.Env, values...)
	var flush func()
	cmd.Stdout, cmd.Stderr, flush = a.Log()
	cmd.Spill = a.Spill()
	cmd.Started = func(pid int) {
		// saved with the run: a resume waits for no step to be still running
		a.Emit(event.Event{Type: event.StepProcess, Step: s.ID, PID: pid})
	}
	res, err := cmd.Run(ctx)
	flush()
	stdout := strings.TrimSpace(res.Stdout)
	if res.StdoutSize > executor.MaxCapture {
		stdout = res.Stdout + a.CutNote(res.StdoutSize, res.StdoutFile)
	}
	if res.SpillErr != nil {
		// the value would point at a file that does not hold the whole:
		// the step fails instead, and the partial files go
		for _, f := range []string{res.StdoutFile, res.StderrFile} {
			if f != "" {
				_ = os.Remove(f)
			}
		}
		return run.Outcome{Stderr: res.Stderr, Stdout: res.Stdout}, fmt.Errorf("its output is over %d MiB and could not be kept whole in the run's directory: %w", executor.MaxCapture>>20, res.SpillErr)
	}
	out := run.Outcome{Value: interp.TextValue(stdout), Stderr: res.Stderr, Stdout: res.Stdout}
	if err != nil {
		return out, commandError(err)
	}
	return out, nil
}

// commandError words an executor error for a step result.
func commandError(err error) error {
	var se *executor.StartError
	if errors.As(err, &se) {
		if errors.Is(err, syscall.E2BIG) {
			err = fmt.Errorf("%w: an argument or env: value is over the 128 KiB the system allows one (a run: script gets big values on a pipe; pass a big value that way, or in a file)", err)
		}
		return run.Permanent(err)
	}
	return err
}
