package run

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
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
	// BadParams is an agent step whose requests its model's API refuses
	// on any machine: a parameter it does not take, a temperature out of
	// its range. Unlike BadModel, validation reports it as an error.
	BadParams
	// Pending is a definition the file leaves to where it runs and that
	// is not there: a script in no library, an undeclared connection
	// (pending.go).
	Pending
)

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
	// unreachable marks one found in a state no run reaches: a warning.
	unreachable bool
}

func (e *PreflightError) Error() string {
	if e.Kind == Unsupported {
		return fmt.Sprintf("%s:%s: %s: %s is not supported yet; nothing was run", e.File, e.Pos, e.who(), e.Msg)
	}
	return fmt.Sprintf("%s:%s: %s: %s; nothing was run", e.File, e.Pos, e.who(), e.Msg)
}

func (e *PreflightError) who() string {
	if e.Who != "" {
		return e.Who
	}
	return fmt.Sprintf("step %q", e.Step)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *PreflightError) NothingRan() bool { return true }

// RerunSet is the steps a resume may run again although they started
// (resume --rerun): each must be a step or transition of c, or a step of a
// chain a chain step calls (CALLER/STEP). A name of nothing is a
// response.RerunNameError.
func RerunSet(c *chain.Chain, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		caller, nested := ownerOf(id)
		if c.Step(id) == nil && (!nested || c.Step(caller) == nil || !holdsSaved(c.Step(caller))) {
			return nil, &response.RerunNameError{Chain: c.Name, Step: id}
		}
		out[id] = true
	}
	return out, nil
}
