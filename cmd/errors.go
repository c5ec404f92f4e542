package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/run"
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

// exitStatus ends a command whose result is already printed with a code.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

// exitCode maps an error to the contract's exit codes, in one place.
func exitCode(err error) int {
	var st *exitStatus
	var ue *usageError
	var ie *run.InputError
	var ve *chain.ValidationError
	var nf *chain.NotFoundError
	var ne *run.UnsupportedError
	var de *chain.DirError
	var ce *run.CallError
	var me *run.ModelError
	var re *run.RerunError
	var snf *store.NotFoundError
	var sle *store.LockedError
	var sce *store.CorruptError
	var te *run.TakeError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return st.code
	case errors.As(err, &ue), errors.As(err, &ie), errors.As(err, &ve), errors.As(err, &nf), errors.As(err, &ne), errors.As(err, &de), errors.As(err, &ce), errors.As(err, &me),
		errors.As(err, &re), errors.As(err, &snf), errors.As(err, &sle), errors.As(err, &sce), errors.As(err, &te):
		return exitUsage
	case isCobraUsage(err):
		return exitUsage
	}
	return exitFailed
}

// isCobraUsage recognises the errors cobra itself returns for a bad
// command line.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "required flag"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// reportError prints err (unless its output was already printed) and
// returns the exit code.
func reportError(io *iostreams.IOStreams, err error) int {
	code := exitCode(err)
	if err == nil {
		return code
	}
	var st *exitStatus
	if errors.As(err, &st) {
		if st.msg != "" {
			fmt.Fprintln(io.ErrOut, "chainrun: "+st.msg)
		}
		return code
	}
	var ve *chain.ValidationError
	if errors.As(err, &ve) {
		for _, d := range ve.Diagnostics {
			fmt.Fprintln(io.ErrOut, d.String())
		}
		return code
	}
	fmt.Fprintln(io.ErrOut, "chainrun: "+err.Error())
	if isCobraUsage(err) {
		fmt.Fprintln(io.ErrOut, "Run 'chainrun --help' for usage.")
	}
	return code
}
