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
	"github.com/chainrun/chainrun/pkg/interp"
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
	w := &lineEmitter{
		emit: func(lines string) {
			x.Emit(event.Event{Type: event.StepLog, Step: step, Stream: stream, Lines: lines})
		},
		done: func(lines int, size int64) {
			x.Emit(event.Event{Type: event.StepStreamed, Step: step, Stream: stream, LineCount: lines, Bytes: size})
		},
	}
	if x.Secrets != nil {
		w.mask, w.hold = x.Mask, x.Secrets.Longest()-1
	}
	return w
}

// lineEmitter cuts a step's output into step.log lines, sent in batches
// (each line ending in a newline): the lines each Write completes. A
// line too long for one is cut in pieces, masked before it is cut
// (mask), and each piece ends at least hold bytes before what is
// buffered, so that no secret (of at most hold+1 bytes) is split between
// two pieces and shown in neither masked.
type lineEmitter struct {
	// emit sends a batch of lines.
	emit func(lines string)
	// done, when set, is told at flush how many lines and bytes were
	// streamed, if any.
	done func(lines int, size int64)
	// buf is a line not ended yet; out the lines of a batch built line
	// by line.
	buf, out []byte
	mask     func(string) string
	hold     int
	lines    int
	size     int64
}

// maxLogLine is the longest step.log line: a longer one (a minified file,
// a progress bar without newlines) is sent in pieces of this size, so
// --verbose costs the same per byte whatever the line length.
const maxLogLine = 64 << 10

// piece adds the first piece of a buffered line too long for one event
// to the batch, and reports whether it did (masking may leave less than
// a piece).
func (w *lineEmitter) piece() bool {
	if w.mask == nil {
		w.add(w.buf[:maxLogLine])
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
	w.add([]byte(s[:cut]))
	w.buf = append(w.buf[:0], s[cut:]...)
	return true
}

// add adds a line to the batch being built.
func (w *lineEmitter) add(line []byte) {
	w.out = append(append(w.out, line...), '\n')
}

// ended adds the buffered line, which ended, to the batch: its pieces
// first when it is too long for one.
func (w *lineEmitter) ended() {
	for len(w.buf) > maxLogLine {
		if !w.piece() {
			break
		}
	}
	w.add(bytes.TrimRight(w.buf, "\r"))
	w.buf = w.buf[:0]
}

// Write sends the lines p completes. Only the new bytes are searched, so
// a long line arriving in many writes costs no more than a short one;
// and the whole lines of p, when none is too long and none ends in a CR
// (what a command printing many short lines writes), go as they are, in
// one batch, without a look at each.
func (w *lineEmitter) Write(p []byte) (int, error) {
	n := len(p)
	w.size += int64(n)
	if len(w.buf) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf = append(w.buf, p...)
			w.pieces()
			w.send()
			return n, nil
		}
		w.buf = append(w.buf, p[:i]...)
		w.ended()
		p = p[i+1:]
	}
	if j := bytes.LastIndexByte(p, '\n'); j >= 0 {
		whole := p[:j+1]
		if len(whole) <= maxLogLine && bytes.IndexByte(whole, '\r') < 0 {
			// with the line that came before, in one copy
			var b strings.Builder
			b.Grow(len(w.out) + len(whole))
			b.Write(w.out)
			b.Write(whole)
			w.batch(b.String())
			w.out = w.out[:0]
		} else {
			for len(whole) > 0 {
				i := bytes.IndexByte(whole, '\n')
				w.buf = append(w.buf, whole[:i]...)
				w.ended()
				whole = whole[i+1:]
			}
		}
		p = p[j+1:]
	}
	w.buf = append(w.buf, p...)
	w.pieces()
	w.send()
	return n, nil
}

// pieces adds the pieces of a line not ended yet and already too long.
func (w *lineEmitter) pieces() {
	for len(w.buf) >= maxLogLine {
		if !w.piece() {
			break
		}
	}
}

// send emits the batch built line by line, if it holds a line.
func (w *lineEmitter) send() {
	if len(w.out) > 0 {
		w.batch(string(w.out))
		w.out = w.out[:0]
	}
}

// batch emits lines, masked, counting them.
func (w *lineEmitter) batch(lines string) {
	if w.mask != nil {
		lines = w.mask(lines)
	}
	w.lines += strings.Count(lines, "\n")
	w.emit(lines)
}

// flush sends what is left of a last line without its newline, then the
// count of what was streamed.
func (w *lineEmitter) flush() {
	if len(w.buf) > 0 {
		w.add(w.buf)
		w.buf = nil
	}
	w.send()
	if w.done != nil && w.lines > 0 {
		w.done(w.lines, w.size)
	}
}

func flushLines(ws ...io.Writer) {
	for _, w := range ws {
		if le, ok := w.(*lineEmitter); ok {
			le.flush()
		}
	}
}
