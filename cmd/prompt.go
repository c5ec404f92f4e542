package cmd

import (
	"bufio"
	"context"
	"io"
	"sync"
)

// terminal is the person at the terminal, as every prompt of a run meets
// them: one reader of stdin (so an answer typed ahead is never lost
// between two prompts), one question at a time (a turn's tool calls may
// ask together), and the live display held while they answer.
type terminal struct {
	mu    sync.Mutex
	lines *bufio.Reader
	out   io.Writer
	f     *factory
}

// terminal returns the run's terminal, or nil without one on stdin and
// stderr (CI, a pipe): then nobody is asked.
func (f *factory) terminal() *terminal {
	if !f.io.IsStdinTTY() || !f.io.IsStderrTTY() {
		return nil
	}
	if f.term == nil {
		f.term = &terminal{lines: bufio.NewReader(f.io.In), out: f.io.ErrOut, f: f}
	}
	return f.term
}

// ask runs one question and its answer alone on the terminal.
func (t *terminal) ask(fn func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if live := t.f.live; live != nil {
		// the live display must not redraw over the question
		live.hold(fn)
		return
	}
	fn()
}

// readLine reads one line, giving up when ctx ends (Ctrl-C while the
// prompt waits).
func (t *terminal) readLine(ctx context.Context) (string, error) {
	type line struct {
		text string
		err  error
	}
	ch := make(chan line, 1)
	go func() {
		text, err := t.lines.ReadString('\n')
		ch <- line{text, err}
	}()
	select {
	case l := <-ch:
		return l.text, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
