package run

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/mask"
)

// ExitCode keeps a command's exit code in out, for $.output.exitCode;
// with treatNonZeroAsFailure: false a nonzero one is a value, not a
// failure. A kind that runs a command returns through it.
func ExitCode(s *chain.Step, out Outcome, err error) (Outcome, error) {
	var ee *executor.ExitError
	if errors.As(err, &ee) && ee.Signal == "" {
		out.ExitCode = ee.Code
		if s.Exit().TreatNonZeroAsFailure != nil && !*s.Exit().TreatNonZeroAsFailure {
			// a value to map or branch on, not a failure
			err = nil
		}
	}
	return out, err
}

// exitValue is ExitCode for an outcome the engine holds (a stand-in's).
func exitValue(s *chain.Step, out outcome, err error) (outcome, error) {
	o, err := ExitCode(s, Outcome{ExitCode: out.exitCode}, err)
	out.exitCode = o.ExitCode
	return out, err
}

// spill opens the files a step's oversized output is kept in, under the
// run's directory; nil when the run has none, or has secret inputs (the
// rest is dropped: a spill file is raw output, and a secret is never
// written to disk unmasked).
func (x *Execution) spill(s *chain.Step) func(stream string) (io.WriteCloser, string, error) {
	if x.Req.OutputDir == "" || x.Secrets != nil {
		return nil
	}
	return func(stream string) (io.WriteCloser, string, error) {
		if err := os.MkdirAll(x.Req.OutputDir, 0o700); err != nil {
			return nil, "", err
		}
		n := x.spills.Add(1)
		path := filepath.Join(x.Req.OutputDir, fmt.Sprintf("%s-%d.%s", s.ID, n, stream))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, "", err
		}
		return f, path, nil
	}
}

// cutNote ends a value cut at the in-memory cap, saying so and where the
// whole is.
func (x *Execution) cutNote(size int64, path string) string {
	where := "the rest was dropped (runs that are saved keep it)"
	if x.Secrets != nil {
		where = "the rest was dropped (a run with secret inputs keeps no raw output on disk)"
	}
	if path != "" {
		where = "the whole is in " + path
	}
	return fmt.Sprintf("\n… [output cut at %d MiB of %d bytes; %s]", executor.MaxCapture>>20, size, where)
}

// binDir is the bin/ directory beside the chain's file, when there is
// one: its commands are found by name, as reference 000's lint-check.
func (x *Execution) binDir() string {
	x.binOnce.Do(func() {
		if x.Chain.File == "" {
			return
		}
		dir := filepath.Join(filepath.Dir(x.Chain.File), "bin")
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(x.workDir(), dir)
		}
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			x.bin = dir
		}
	})
	return x.bin
}

// arg renders one of a cli step's args or env values: a template, or a
// JSONPath into the run. In a workflows: file's workflow a path that
// selects nothing is passed as written, as mcp-flowgate's cli executor
// passes it (with a warning unless it is an input not given).
func (x *Execution) arg(a chain.Arg, sc Scope) (string, error) {
	v, err := x.selectArg(a, sc)
	var none *nothingSelected
	if errors.As(err, &none) && x.Chain.LenientInputs() {
		if !inputPath(a.Raw) {
			x.Warn(fmt.Sprintf("%s matches nothing in the run context: passed as written, as mcp-flowgate passes it", a.Raw))
		}
		return a.Raw, nil
	}
	return v, err
}

// selectArg renders an argument, a path that selects nothing failing the
// step: what a file step's path needs (never a read of a file named
// "$.context.p").
func (x *Execution) selectArg(a chain.Arg, sc Scope) (string, error) {
	if a.JSONPath == nil {
		return x.render(a.Template, sc)
	}
	nodes := a.JSONPath.Select(sc.document())
	if len(nodes) == 0 {
		return "", &permanentError{&nothingSelected{a.Raw}}
	}
	if len(nodes) == 1 {
		return interp.TextOf(nodes[0]), nil
	}
	return interp.TextOf([]any(nodes)), nil
}

// nothingSelected is an argument's JSONPath that selects nothing.
type nothingSelected struct{ path string }

func (e *nothingSelected) Error() string {
	return e.path + " matches nothing in the run context"
}

// inputPath reports whether a JSONPath reads an input.
func inputPath(raw string) bool {
	_, ok := chain.InputRead(raw)
	return ok
}

// lineWriter turns a command's output into step.log events: each write
// of it (one read of the command's pipe) is an event carrying the lines
// it completed, masked, and once the command ended a step.streamed event
// counts what was streamed (the event log keeps that count, not the
// lines). A million lines cost an event per read, not two writes a line.
func (x *Execution) lineWriter(step, stream string) io.Writer {
	w := &mask.LineEmitter{
		Emit: func(lines string) {
			x.Emit(event.Event{Type: event.StepLog, Step: step, Stream: stream, Lines: lines})
		},
		Done: func(lines int, size int64) {
			x.Emit(event.Event{Type: event.StepStreamed, Step: step, Stream: stream, LineCount: lines, Bytes: size})
		},
	}
	if x.Secrets != nil {
		w.Mask, w.Hold = x.Mask, x.Secrets.Longest()-1
	}
	return w
}
