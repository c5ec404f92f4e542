//go:build !linux

package executor

import (
	"io"
	"os/exec"
	"time"
)

// streams hands a child's output to os/exec, which copies each stream in
// a goroutine of its own and stops waiting for a straggler's pipes after
// cmd.WaitDelay. (Linux reads them in the waiting goroutine.)
type streams struct{}

func openStreams(cmd *exec.Cmd, stdout, stderr io.Writer) (*streams, error) {
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return &streams{}, nil
}

func (*streams) started() {}

func (*streams) close() {}

func (*streams) drain(int, time.Duration) error { return nil }

// noInput leaves stdin to os/exec, which opens the null device.
func noInput(*exec.Cmd) {}
