// Package iostreams carries the three standard streams and what is known
// about them (terminals or not), so every command writes through injected
// writers and tests can swap in buffers with a switchable TTY. It imports
// nothing of this module.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command uses: results on Out, progress and
// logs on ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY, stderrTTY bool
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		stdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
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

// IsStderrTTY reports whether progress goes to a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }
