package response

import (
	"fmt"
	"strings"
)

// The refusals of a resume's --rerun and --take: each says that nothing
// ran (NothingRan), and the ones an MCP client meets have Plain words.

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

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *RerunError) NothingRan() bool { return true }

// TakeError is a --take that names no link of the decision the run is
// at. Nothing ran.
type TakeError struct {
	Take  string
	State string
	Links []Link
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
		return fmt.Sprintf("%s: the run waits at gate %q, which takes %s", subject, e.State, strings.Join(SortedLinkNames(e.Links), ", "))
	}
	if e.Why != "" {
		offers := "it offers no transition now"
		if len(e.Links) > 0 {
			offers = "it offers " + strings.Join(SortedLinkNames(e.Links), ", ")
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
