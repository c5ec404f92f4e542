package prompt

import (
	"bufio"
	"context"
	"io"
	"sync"
)

// Terminal is the person at the terminal, as every prompt of a run meets
// them: one reader of the input (so an answer typed ahead is never lost
// between two prompts), one question at a time (a turn's tool calls may
// ask together).
type Terminal struct {
	mu    sync.Mutex
	lines *bufio.Reader
	out   io.Writer
}

// Holder is a display that stops drawing while a question is asked
// (live.Display): nothing may redraw over the question.
type Holder interface {
	Hold(fn func())
}

// New is the terminal that reads answers from in and asks on out (stderr:
// stdout keeps only the result).
func New(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{lines: bufio.NewReader(in), out: out}
}

// ask runs one question and its answer alone on the terminal, with the
// display held, when there is one.
func (t *Terminal) ask(held Holder, fn func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if held != nil {
		held.Hold(fn)
		return
	}
	fn()
}

// readLine reads one line, giving up when ctx ends (Ctrl-C while the
// prompt waits), with the prompt's line ended.
func (t *Terminal) readLine(ctx context.Context) (string, error) {
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
		// the line stays as typed (the terminal echoed ^C); what is
		// printed next starts on a line of its own
		_, _ = io.WriteString(t.out, "\n")
		return "", ctx.Err()
	}
}
