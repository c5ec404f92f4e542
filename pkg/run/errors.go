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

// RerunError is a resumed run with a step that is not idempotent and may
// have started before: nothing runs until the caller confirms.
type RerunError struct {
	Steps []string
	// Command is the whole command that confirms them (with the --take
	// a workflow's decision needs), ready to paste; empty when the run
	// has no id yet.
	Command string
	// Take is the decision the confirmed resume takes ("" for none).
	Take string
}

func (e *RerunError) Error() string {
	next := "--rerun " + strings.Join(e.Steps, " --rerun ")
	if e.Command != "" {
		next = e.Command
	}
	return fmt.Sprintf("step %s is not idempotent and may already have done its work (it started and did not succeed); check, then resume with: %s",
		strings.Join(e.Steps, ", "), next)
}

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

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *RerunError) NothingRan() bool { return true }

// TakeError is a --take that names no link of the decision the run is
// at. Nothing ran.
type TakeError struct {
	Take  string
	State string
	Links []response.Link
	// Why, when set, is why the transition taken is not viable now: the
	// condition or guard that does not hold.
	Why string
	// Gate marks a --take given to a DAG run, which decides the gates it
	// waits at (State is the first of them).
	Gate bool
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *TakeError) NothingRan() bool { return true }

func (e *TakeError) Error() string { return e.say("--take "+e.Take, "--take") }

// Plain is the error in words of no command line (an MCP client's).
func (e *TakeError) Plain() string { return e.say("transition "+e.Take, "a take") }

// say words the error, the take named as subject, the flag as flag.
func (e *TakeError) say(subject, flag string) string {
	if e.Gate && len(e.Links) == 0 {
		return fmt.Sprintf("%s: the run waits at no gate; %s decides a gate a paused run waits at (or a workflow's transition)", subject, flag)
	}
	if e.Gate {
		return fmt.Sprintf("%s: the run waits at gate %q, which takes %s", subject, e.State, strings.Join(response.SortedLinkNames(e.Links), ", "))
	}
	if e.Why != "" {
		offers := "it offers no transition now"
		if len(e.Links) > 0 {
			offers = "it offers " + strings.Join(response.SortedLinkNames(e.Links), ", ")
		}
		return fmt.Sprintf("%s: not viable at state %q: %s (%s)", subject, e.State, e.Why, offers)
	}
	if len(e.Links) == 0 {
		return fmt.Sprintf("%s: the run is at state %q, which offers no transition now (none of its transitions is allowed, or it has none)", subject, e.State)
	}
	names := make([]string, len(e.Links))
	for i, l := range e.Links {
		names[i] = l.Transition
	}
	return fmt.Sprintf("%s: state %q offers %s", subject, e.State, strings.Join(names, ", "))
}

// RerunSet is the steps a resume may run again although they started
// (resume --rerun): each must be a step or transition of c, or a step of a
// chain a chain step calls (CALLER/STEP). A name of nothing is a
// RerunNameError.
func RerunSet(c *chain.Chain, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		caller, nested := ownerOf(id)
		if c.Step(id) == nil && (!nested || c.Step(caller) == nil || !holdsSaved(c.Step(caller))) {
			return nil, &RerunNameError{Chain: c.Name, Step: id}
		}
		out[id] = true
	}
	return out, nil
}

// RerunNameError is a step confirmed to run again (--rerun) that the
// chain does not have. Nothing ran.
type RerunNameError struct {
	Chain, Step string
}

func (e *RerunNameError) Error() string {
	return fmt.Sprintf("%s: --rerun %s: the chain has no such step (or transition)", e.Chain, e.Step)
}

// Plain is the error in words of no command line (an MCP client's).
func (e *RerunNameError) Plain() string {
	return fmt.Sprintf("rerun %s: chain %s has no such step (or transition)", e.Step, e.Chain)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *RerunNameError) NothingRan() bool { return true }
