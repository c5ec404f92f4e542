package response

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Errors returned by Engine.Run mean the run did not start: each says so
// with NothingRan, and the CLI maps every such error to exit 2 without a
// list of types. A run that started returns a Result instead, whose
// Status says how it ended.

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
	// BadParams is an agent step whose requests its model's API refuses
	// on any machine: a parameter it does not take, a temperature out of
	// its range. Unlike BadModel, validation reports it as an error.
	BadParams
	// Pending is a definition the file leaves to where it runs and that
	// is not there: a script in no library, an undeclared connection
	// (pkg/run/pending.go).
	Pending
)

func (e *PreflightError) Error() string {
	if e.Kind == Unsupported {
		return fmt.Sprintf("%s:%s: %s: %s is not supported yet; nothing was run", e.File, e.Pos, e.Subject(), e.Msg)
	}
	return fmt.Sprintf("%s:%s: %s: %s; nothing was run", e.File, e.Pos, e.Subject(), e.Msg)
}

// Subject is how the step is named in a message: Who, else step "ID".
func (e *PreflightError) Subject() string {
	if e.Who != "" {
		return e.Who
	}
	return fmt.Sprintf("step %q", e.Step)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *PreflightError) NothingRan() bool { return true }

// EmptyChainError refuses a run of a file read as OCC's that holds no
// step (chain.Chain.Empty), before anything runs, as OCC's executor
// refuses one: its canvas saves such a workspace, and its loader loads it.
type EmptyChainError struct {
	Chain, File string
}

func (e *EmptyChainError) Error() string {
	where := ""
	if e.File != "" {
		where = e.File + ": "
	}
	return where + fmt.Sprintf("chain %q has no executable steps: it holds no step (a workspace OCC's canvas saves); add steps to run it", e.Chain)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *EmptyChainError) NothingRan() bool { return true }

// PreflightKind says what a check before the run found.
type PreflightKind int

// PreflightError is a step that cannot run, found before any step runs.
type PreflightError struct {
	Kind PreflightKind
	File string
	Pos  chain.Pos
	Step string
	Msg  string
	// Who, when set, is how the step is named (transition "go" executor);
	// else it is step "ID".
	Who string
	// Unreachable marks one found in a state no run reaches: a warning.
	Unreachable bool
}
