package run

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/executor"
)

// ExitCode keeps a command's exit code in out, for $.output.exitCode;
// with treatNonZeroAsFailure: false a nonzero one is a value, not a
// failure. A kind that runs a command returns through it.
func ExitCode(s *chain.Step, out Outcome, err error) (Outcome, error) {
	var ee *executor.ExitError
	if errors.As(err, &ee) && ee.Signal == "" {
		out.ExitCode = ee.Code
		if s.CLI().TreatNonZeroAsFailure != nil && !*s.CLI().TreatNonZeroAsFailure {
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
		return TextOf(nodes[0]), nil
	}
	return TextOf([]any(nodes)), nil
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

// lineWriter turns a command's output into step.log events, line by line.
func (x *Execution) lineWriter(step, stream string) io.Writer {
	w := &lineEmitter{emit: func(line string) {
		x.Emit(event.Event{Type: event.StepLog, Step: step, Stream: stream, Line: line})
	}}
	if x.Secrets != nil {
		w.mask, w.hold = x.Mask, x.Secrets.Longest()-1
	}
	return w
}

// lineEmitter cuts a step's output into step.log lines. A line too long
// for one is cut in pieces, masked before it is cut (mask), and each
// piece ends at least hold bytes before what is buffered, so that no
// secret (of at most hold+1 bytes) is split between two pieces and shown
// in neither masked.
type lineEmitter struct {
	emit func(string)
	buf  []byte
	mask func(string) string
	hold int
}

// maxLogLine is the longest step.log line: a longer one (a minified file,
// a progress bar without newlines) is sent in pieces of this size, so
// --verbose costs the same per byte whatever the line length.
const maxLogLine = 64 << 10

// piece emits the first piece of a buffered line too long for one event,
// and reports whether it did (masking may leave less than a piece).
func (w *lineEmitter) piece() bool {
	if w.mask == nil {
		w.emit(string(w.buf[:maxLogLine]))
		w.buf = append(w.buf[:0], w.buf[maxLogLine:]...)
		return true
	}
	// masked, the buffer holds no whole secret: one that would straddle
	// a cut this far from its end is still to come whole
	s := w.mask(string(w.buf))
	if len(s) < maxLogLine {
		w.buf = append(w.buf[:0], s...)
		return false
	}
	cut := min(maxLogLine, len(s)-w.hold)
	if cut < maxLogLine/2 { // a secret of half a piece: pieces stay pieces
		cut = maxLogLine
	}
	w.emit(s[:cut])
	w.buf = append(w.buf[:0], s[cut:]...)
	return true
}

// Write emits every complete line of p; only the new bytes are searched,
// so a long line arriving in many writes costs no more than a short one.
func (w *lineEmitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf = append(w.buf, p...)
			for len(w.buf) >= maxLogLine {
				if !w.piece() {
					break
				}
			}
			break
		}
		w.buf = append(w.buf, p[:i]...)
		for len(w.buf) > maxLogLine {
			if !w.piece() {
				break
			}
		}
		w.emit(strings.TrimRight(string(w.buf), "\r"))
		w.buf = w.buf[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (w *lineEmitter) flush() {
	if len(w.buf) > 0 {
		w.emit(string(w.buf))
		w.buf = nil
	}
}

func flushLines(ws ...io.Writer) {
	for _, w := range ws {
		if le, ok := w.(*lineEmitter); ok {
			le.flush()
		}
	}
}
