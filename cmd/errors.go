package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// The exit codes of the contract.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitPaused      = 3
	exitInterrupted = 130
)

// usageError is a bad flag, argument or input: exit 2, nothing ran.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitStatus ends a command whose result is already printed with a code:
// a run that did not succeed (resultExit), or a validation that found
// invalid files.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

// resultExit is the exit code of a run's status: 0 succeeded, 3 paused at
// a decision point, 130 interrupted, 1 failed (with the message for
// stderr, whose resume hint says --reload when c's file changed since),
// or with pass (--pass-exit-code) the failed command's (failedExit).
func resultExit(res *record.Result, format string, c *chain.Chain, pass bool) error {
	switch res.Status {
	case record.Succeeded:
		return nil
	case record.Interrupted:
		return &exitStatus{code: exitInterrupted, msg: text.Interrupted(res, store.EditOf(c))}
	case record.Paused:
		return &exitStatus{code: exitPaused}
	}
	return &exitStatus{code: failedExit(res, c, pass), msg: text.Failure(res, format == "text", store.EditOf(c))}
}

// failedExit is a failed run's exit code: 1, or with pass the status the
// command whose failure failed it exited with (1..255), as go-task's
// --exit-code passes it on. 2, 3 and 130 stay 1: they are chainrun's own
// words (nothing ran, paused, interrupted), and a pipeline would act on a
// lie.
func failedExit(res *record.Result, c *chain.Chain, pass bool) int {
	switch n := res.CommandExitCode(c); {
	case !pass, n <= 0, n > 255, n == exitUsage, n == exitPaused, n == exitInterrupted:
		return exitFailed
	default:
		return n
	}
}

// nothingRan is the class of every error from before anything ran: a bad
// flag, argument, input or chain, a step that cannot run here, a saved run
// that cannot be resumed. Each such error declares it; no list of types
// is kept here.
type nothingRan interface{ NothingRan() bool }

// NothingRan marks a usage error: exit 2.
func (e *usageError) NothingRan() bool { return true }

// exitCode maps an error to the contract's exit codes, in one place.
// commandRan is false when cobra refused the command line before any
// command started (an unknown command or flag, wrong arguments).
func exitCode(err error, commandRan bool) int {
	var st *exitStatus
	var nr nothingRan
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return st.code
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case !commandRan, errors.As(err, &nr) && nr.NothingRan():
		return exitUsage
	}
	return exitFailed
}

// wantsJSON reports whether the command line asked for --output json; it
// reads the arguments too, since a refused command line may leave the
// flag unparsed.
func wantsJSON(f *factory, args []string) bool {
	if v, err := f.config(); err == nil && v.GetString(keyOutput) == "json" {
		return true
	}
	for i, a := range args {
		switch a {
		case "--":
			return false
		case "-o", "--output":
			if i+1 < len(args) && args[i+1] == "json" {
				return true
			}
		case "-ojson", "-o=json", "--output=json":
			return true
		}
	}
	return false
}

// reportError prints err (unless its output was already printed) and
// returns the exit code. With asJSON an error object goes to stdout as
// well, so that -o json always prints JSON.
func reportError(io *iostreams.IOStreams, err error, commandRan, asJSON bool) int {
	code := exitCode(err, commandRan)
	if err == nil {
		return code
	}
	if interrupt.PipeClosed(err) {
		return exitOK // … | head: the reader had what it wanted
	}
	var st *exitStatus
	if errors.As(err, &st) {
		if st.msg != "" {
			fmt.Fprintln(io.ErrOut, "chainrun: "+st.msg)
		}
		return code
	}
	// a refusal of the command line that does not already say where help
	// is gets a hint
	hint := !commandRan && !strings.Contains(err.Error(), "--help")
	text.Error(io.Out, io.ErrOut, err, code, hint, asJSON)
	return code
}
