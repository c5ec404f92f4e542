package run

import (
	"fmt"
	"strings"

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

// ResumeCommand is the command line that resumes runID, taking take when
// it is set and confirming the steps in rerun, each argument quoted for a
// POSIX shell when it needs it, so that a printed command works pasted.
func ResumeCommand(runID, take string, rerun ...string) string {
	args := []string{Command(), "resume", shellWord(runID)}
	if take != "" {
		args = append(args, "--take", shellWord(take))
	}
	for _, r := range rerun {
		args = append(args, "--rerun", shellWord(r))
	}
	return strings.Join(args, " ")
}

// ArgFlags are the --arg flags that give the arguments a link needs, each
// with its placeholder (" --arg 'ticket=<string>'"), quoted so that one
// pasted as printed runs nothing with a placeholder for a value (the
// placeholder itself is refused): only the placeholder is to be replaced.
func ArgFlags(args []chain.NeededArg) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" --arg " + shellWord(a.Name+"="+a.Placeholder()))
	}
	return b.String()
}

// ShellWord is s as one word of a POSIX shell command line: as it is
// when it holds no character a shell reads, else single-quoted; every
// command chainrun prints for pasting quotes its words with it.
func ShellWord(s string) string { return shellWord(s) }

func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" && s[0] != '-' {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

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
