package run

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Errors returned by Engine.Run mean the run did not start: each says so
// with NothingRan, and the CLI maps every such error to exit 2 without a
// list of types. A run that started returns a Result instead, whose
// Status says how it ended.

// PreflightKind says what a check before the run found.
type PreflightKind int

// What a preflight check can find.
const (
	// Unsupported is a feature this version cannot run yet.
	Unsupported PreflightKind = iota + 1
	// BadCall is a chain step that cannot call its chain: a missing
	// callee, other inputs, a call cycle.
	BadCall
	// BadModel is an agent step whose model cannot be used on this
	// machine: none named anywhere, an unknown provider, a missing key.
	BadModel
)

// PreflightError is a step that cannot run, found before any step runs.
type PreflightError struct {
	Kind PreflightKind
	File string
	Pos  chain.Pos
	Step string
	Msg  string
}

func (e *PreflightError) Error() string {
	if e.Kind == Unsupported {
		return fmt.Sprintf("%s:%s: step %q: %s is not supported yet; nothing was run", e.File, e.Pos, e.Step, e.Msg)
	}
	return fmt.Sprintf("%s:%s: step %q: %s; nothing was run", e.File, e.Pos, e.Step, e.Msg)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *PreflightError) NothingRan() bool { return true }

// RerunError is a resumed run with a step that is not idempotent and may
// have started before: nothing runs until the caller confirms.
type RerunError struct {
	Steps []string
}

func (e *RerunError) Error() string {
	return fmt.Sprintf("step %s is not idempotent and may already have done its work (it started and did not succeed); check, then resume with --rerun %s",
		strings.Join(e.Steps, ", "), e.Steps[0])
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *RerunError) NothingRan() bool { return true }

// TakeError is a --take that names no link of the decision the run is
// at. Nothing ran.
type TakeError struct {
	Take  string
	State string
	Links []Link
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *TakeError) NothingRan() bool { return true }

func (e *TakeError) Error() string {
	if len(e.Links) == 0 {
		return fmt.Sprintf("--take %s: the run is at state %q, which offers no transitions", e.Take, e.State)
	}
	names := make([]string, len(e.Links))
	for i, l := range e.Links {
		names[i] = l.Transition
	}
	return fmt.Sprintf("--take %s: state %q offers %s", e.Take, e.State, strings.Join(names, ", "))
}
