package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultGrace is how long a cancelled command has between TERM and KILL.
const DefaultGrace = 3 * time.Second

// MaxCapture bounds how much of a command's stdout and stderr is kept in
// memory; the rest is counted and dropped, and the result says so.
const MaxCapture = 8 << 20

// Command is one child process: an argv run directly (no shell) or a
// script run by sh -c.
type Command struct {
	Argv   []string
	Script string
	Dir    string
	// Env is the complete environment of the child.
	Env []string
	// Stdout and Stderr, when set, also receive the streams as they come.
	Stdout, Stderr io.Writer
	// Grace is the time between TERM and KILL on cancellation.
	Grace time.Duration
	// Force, when closed during the grace period (a second Ctrl-C), sends
	// KILL at once.
	Force <-chan struct{}
	// Spill, when set, opens the file a stream (stdout or stderr) goes to
	// whole once it outgrows MaxCapture, and says its path.
	Spill func(stream string) (io.WriteCloser, string, error)
	// Reap kills what is left of the command's process group once it has
	// exited (background jobs it started), so nothing outlives it.
	Reap bool
	// Bin, when set, is a directory searched before PATH for an argv
	// command named without a slash (a chains directory's bin/).
	Bin string
	// Feeds are written, each through its own pipe, to the child's file
	// descriptors FirstFeedFD, FirstFeedFD+1, …: values too big for its
	// environment or its argv (Linux caps one string at 128 KiB), which a
	// script's prologue reads.
	Feeds []string
	// Started, when set, is told the process's id (its process group's,
	// too) once it runs.
	Started func(pid int)
}

// CommandResult is what a finished command left behind.
type CommandResult struct {
	Stdout, Stderr string
	ExitCode       int
	// Truncated is true when a stream outgrew MaxCapture: Stdout and
	// Stderr hold its first MaxCapture bytes.
	Truncated bool
	// StdoutFile and StderrFile hold the whole stream when it outgrew
	// MaxCapture and the command had Spill; the sizes are the streams'
	// whole lengths. SpillErr is a spill file that could not be written.
	StdoutFile, StderrFile string
	StdoutSize, StderrSize int64
	SpillErr               error
}

// ExitError is a command that ran and exited with a non-zero status (or
// was killed by a signal).
type ExitError struct {
	// Name is the program, for an argv command (empty for a script).
	Name   string
	Code   int
	Signal string
	Stderr string
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("exited with code %d", e.Code)
	if e.Signal != "" {
		msg = "killed by signal " + e.Signal
	}
	if e.Name != "" {
		msg = e.Name + " " + msg
	}
	if last := lastLine(e.Stderr); last != "" {
		msg += ": " + last
	}
	return msg
}

// StartError is a command that could not start (not found, not
// executable, bad directory).
type StartError struct {
	Name string
	Err  error
}

func (e *StartError) Error() string {
	if errors.Is(e.Err, exec.ErrNotFound) {
		return fmt.Sprintf("command %q not found in PATH", e.Name)
	}
	return fmt.Sprintf("cannot start %q: %v", e.Name, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// Run starts the command and waits for it. When ctx ends the whole
// process group gets TERM, then KILL after the grace period (or at once
// when Force closes); the error is then ctx's error.
func (c *Command) Run(ctx context.Context) (CommandResult, error) {
	var name string
	var args []string
	switch {
	case len(c.Argv) > 0:
		name, args = c.Argv[0], c.Argv[1:]
		if c.Bin != "" && !strings.ContainsRune(name, '/') {
			if p := filepath.Join(c.Bin, name); isExecutable(p) {
				name = p
			}
		}
	case c.Script != "":
		name, args = "sh", []string{"-c", c.Script}
	default:
		return CommandResult{}, errors.New("nothing to run")
	}
	cmd := command(name, args...)
	if cmd.Err != nil {
		return CommandResult{}, &StartError{Name: name, Err: cmd.Err}
	}
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	noInput(cmd)
	stdout, stderr := newCapture(c.Stdout, c.spillFor("stdout")), newCapture(c.Stderr, c.spillFor("stderr"))
	pipes, err := openStreams(cmd, stdout.writer(), stderr.writer())
	if err != nil {
		return CommandResult{}, &StartError{Name: name, Err: err}
	}
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	setProcessGroup(cmd)
	var fed *feeds
	if len(c.Feeds) > 0 {
		if fed, err = openFeeds(cmd, c.Feeds); err != nil {
			pipes.close()
			return CommandResult{}, &StartError{Name: name, Err: err}
		}
	}
	// If a grandchild keeps the pipes open after the command exited (or
	// its group was killed), stop waiting for them.
	cmd.WaitDelay = grace + time.Second
	if err := cmd.Start(); err != nil {
		if fed != nil {
			fed.close()
		}
		pipes.close()
		return CommandResult{}, &StartError{Name: name, Err: err}
	}
	pipes.started()
	if fed != nil {
		fed.start()
	}
	if c.Started != nil {
		c.Started(cmd.Process.Pid)
	}
	// The command is waited for here; only a cancellation starts a
	// goroutine, which stops the process group while Wait goes on.
	exited, stopped := make(chan struct{}), make(chan struct{})
	interrupted := false
	stop := context.AfterFunc(ctx, func() {
		defer close(stopped)
		interrupted = c.stopGroup(cmd, grace, exited)
	})
	copyErr := pipes.drain(cmd.Process.Pid, cmd.WaitDelay)
	err = cmd.Wait()
	if err == nil {
		err = copyErr
	}
	close(exited)
	if !stop() {
		<-stopped
	}
	switch {
	case interrupted:
		// Whatever ran is gone; the group may still hold stragglers that
		// ignored TERM but left the leader: make sure.
		killGroup(cmd)
		err = ctx.Err()
	case c.Reap:
		killGroup(cmd)
	}
	outText, outCut := stdout.text()
	errText, errCut := stderr.text()
	res := CommandResult{Stdout: outText, Stderr: errText, Truncated: outCut || errCut}
	outErr, errErr := error(nil), error(nil)
	res.StdoutFile, res.StdoutSize, outErr = stdout.finish()
	res.StderrFile, res.StderrSize, errErr = stderr.finish()
	res.SpillErr = errors.Join(outErr, errErr)
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		exitErr := &ExitError{Code: ee.ExitCode(), Signal: signalName(ee), Stderr: res.Stderr}
		if len(c.Argv) > 0 {
			exitErr.Name = filepath.Base(c.Argv[0])
		}
		return res, exitErr
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		// The command exited; only a straggler held the pipes open.
		return res, nil
	}
	return res, err
}

// stopGroup ends a cancelled command: TERM to its process group, then
// KILL after the grace period, or at once when Force closes, unless it
// exits first. It reports whether the command was still running.
func (c *Command) stopGroup(cmd *exec.Cmd, grace time.Duration, exited <-chan struct{}) bool {
	select {
	case <-exited:
		return false // it ended on its own as the context did
	default:
	}
	terminateGroup(cmd)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
		killGroup(cmd)
	case <-c.Force:
		killGroup(cmd)
	}
	return true
}

func (c *capped) Write(p []byte) (int, error) {
	room := MaxCapture - c.buf.Len()
	if room >= len(p) {
		return c.buf.Write(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += int64(len(p) - max(room, 0))
	if c.spill != nil && c.spillErr == nil {
		if c.file == nil {
			// the file holds the whole stream: what was kept, then the rest
			c.file, c.path, c.spillErr = c.spill()
			if c.spillErr == nil {
				_, c.spillErr = c.buf.WriteTo(c.file)
			}
		}
		if c.spillErr == nil {
			_, c.spillErr = c.file.Write(p[max(room, 0):])
		}
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

// spillFor binds Spill to one stream, or is nil without it.
func (c *Command) spillFor(stream string) func() (io.WriteCloser, string, error) {
	if c.Spill == nil {
		return nil
	}
	return func() (io.WriteCloser, string, error) { return c.Spill(stream) }
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// lastLine is the last line of a failed command's stderr that says
// something, for its error: one line, at most maxErrLine bytes, so that
// the error stays one line in every view. The whole end of the stream is
// the result's tail, shown once.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, "\r\n"); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	if len(s) > maxErrLine {
		cut := maxErrLine
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// maxErrLine bounds the stderr line an ExitError quotes.
const maxErrLine = 300
