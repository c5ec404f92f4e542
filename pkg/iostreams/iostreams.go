// Package iostreams carries the three standard streams and what is known
// about them (terminals or not), so every command writes through injected
// writers and tests can swap in buffers with a switchable TTY. It imports
// nothing of this module.
package iostreams

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/term"
)

// IOStreams are the streams a command uses: results on Out, progress and
// logs on ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY, stdoutTTY, stderrTTY bool
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		stdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		stdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		stderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// Test returns streams backed by buffers: in, out and errOut.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdinTTY reports whether input comes from a terminal (not headless).
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether results go to a terminal (a person reads
// them) rather than a pipe or a file (a program does).
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether progress goes to a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// Guard makes a write to Out or ErrOut that finds its reader gone (EPIPE:
// … | head, a closed log pipe) call stop, once, so that a run ends as
// interrupted rather than half-done; the write still reports its error.
func (s *IOStreams) Guard(stop func()) *IOStreams {
	var once sync.Once
	s.Out = &pipeGuard{w: s.Out, stop: func() { once.Do(stop) }}
	s.ErrOut = &pipeGuard{w: s.ErrOut, stop: func() { once.Do(stop) }}
	return s
}

// pipeGuard watches one stream for a reader gone.
type pipeGuard struct {
	w    io.Writer
	stop func()
}

// File is the stream's file, when it is one (the live display draws on
// the terminal itself).
func (g *pipeGuard) File() *os.File {
	f, _ := g.w.(*os.File)
	return f
}

func (g *pipeGuard) Write(p []byte) (int, error) {
	n, err := g.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		g.stop()
	}
	return n, err
}
