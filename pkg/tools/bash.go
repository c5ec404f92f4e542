package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/executor"
)

const (
	bashDefaultTimeout = 120 * time.Second
	bashMaxTimeout     = 600 * time.Second
	// bashMaxOutput is how much of a command's output the model reads: the
	// end, where the errors and the summary usually are.
	bashMaxOutput = 64 << 10
)

var bashTool = tool{
	description: "Runs a shell command with `sh -c` in the working directory and returns its standard " +
		"output, then its standard error, then its exit code when it is not 0. Stdin is empty, so " +
		"nothing can prompt for input. The command and everything it started are killed after " +
		"timeout_ms milliseconds (default 120000, at most 600000). Only the last 64 KiB of output " +
		"are returned. Prefer Read, Glob and Grep for looking at files.",
	params: []param{
		{name: "command", kind: "string", required: true, description: "The shell command to run."},
		{name: "timeout_ms", kind: "integer", description: "Milliseconds before the command is killed: default 120000, at most 600000."},
	},
	run: bash,
}

// bashTimeout is the time limit of a call: the default for none or a
// non-positive one, clamped to the maximum.
func bashTimeout(ms int64, given bool) time.Duration {
	if !given || ms <= 0 {
		return bashDefaultTimeout
	}
	if ms >= int64(bashMaxTimeout/time.Millisecond) {
		return bashMaxTimeout
	}
	return time.Duration(ms) * time.Millisecond
}

func bash(ctx context.Context, w *workspace, v values) (string, error) {
	command := v.str("command")
	if strings.TrimSpace(command) == "" {
		return "", errEmpty("command")
	}
	if err := w.env.Commands.Check(command); err != nil {
		return "", fmt.Errorf("command not run: %w", err)
	}
	timeout := bashTimeout(v.int("timeout_ms"))
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("command not run: %w", err)
	}
	environ := w.env.Environ
	if environ == nil {
		environ = os.Environ()
	}
	environ = w.env.Commands.Environ(environ)
	var stdout, stderr tail
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Reap: a model's background job must not outlive its call
	cmd := &executor.Command{Script: command, Dir: w.root, Env: environ, Grace: w.env.Grace, Force: w.env.Force, Stdout: &stdout, Stderr: &stderr, Reap: true}
	_, err := cmd.Run(tctx)
	var exit *executor.ExitError
	switch {
	case err == nil, errors.As(err, &exit):
		if out := bashOutput(&stdout, &stderr, exit); out != "" {
			return out, nil
		}
		return "(no output)", nil
	case ctx.Err() != nil:
		return "", &stoppedError{why: "cancelled", cause: ctx.Err(), output: bashOutput(&stdout, &stderr, nil)}
	case tctx.Err() != nil:
		return "", &stoppedError{why: fmt.Sprintf("timed out after %s", timeout), cause: tctx.Err(), output: bashOutput(&stdout, &stderr, nil)}
	}
	return "", fmt.Errorf("command could not run: %w", err)
}

// stoppedError is a command killed before it finished, by its timeout or
// a cancelled run; it wraps the context's error. What it had printed goes
// with it, for the model to see how far it got.
type stoppedError struct {
	why    string
	cause  error
	output string
}

func (e *stoppedError) Error() string {
	msg := "command " + e.why + " and was killed"
	if e.output != "" {
		msg += "; its output until then:\n" + e.output
	}
	return msg
}

func (e *stoppedError) Unwrap() error { return e.cause }

// bashOutput is what the model reads of a command: stdout, then stderr
// under a label, then how it ended when not with 0; only the last
// bashMaxOutput bytes of that, with a first line saying what was cut.
// It is empty when there is nothing to say.
func bashOutput(stdout, stderr *tail, exit *executor.ExitError) string {
	out, outTotal := stdout.get()
	errs, errTotal := stderr.get()
	var b strings.Builder
	b.Write(out)
	newline := func() {
		if s := b.String(); s != "" && !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
	}
	if errTotal > 0 {
		newline()
		b.WriteString("stderr:\n")
		b.Write(errs)
	}
	if exit != nil {
		newline()
		if exit.Signal != "" {
			b.WriteString("killed by signal " + exit.Signal)
		} else {
			fmt.Fprintf(&b, "exit code %d", exit.Code)
		}
	}
	s := b.String()
	lost := (outTotal - int64(len(out))) + (errTotal - int64(len(errs)))
	if len(s) > bashMaxOutput {
		i := len(s) - bashMaxOutput
		for i < len(s) && !utf8.RuneStart(s[i]) {
			i++
		}
		lost += int64(i)
		s = s[i:]
	}
	if lost > 0 {
		s = fmt.Sprintf("[output cut: the first %d bytes are not shown]\n", lost) + s
	}
	return s
}

// tail keeps the last bashMaxOutput bytes written to it and counts all,
// so that a command printing without end is cut at its beginning, not at
// its end where its result is.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	total int64
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if len(p) >= bashMaxOutput {
		t.buf = append(t.buf[:0], p[len(p)-bashMaxOutput:]...)
		return len(p), nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*bashMaxOutput {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-bashMaxOutput:]...)
	}
	return len(p), nil
}

// get returns the bytes kept (at most bashMaxOutput) and how many were
// written in all.
func (t *tail) get() ([]byte, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf[max(0, len(t.buf)-bashMaxOutput):], t.total
}
