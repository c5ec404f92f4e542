package executor

import (
	"context"
	"io"
	"testing"
)

// BenchmarkCommandTrue is the per-step cost of running a trivial program
// with its output captured.
func BenchmarkCommandTrue(b *testing.B) {
	c := &Command{Argv: []string{"true"}}
	for b.Loop() {
		if _, err := c.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommandTrueStreaming is the same with output streamed (the
// --verbose path, through pipes).
func BenchmarkCommandTrueStreaming(b *testing.B) {
	c := &Command{Argv: []string{"true"}, Stdout: io.Discard, Stderr: io.Discard}
	for b.Loop() {
		if _, err := c.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
