// Package runtest is the one table of workflow behaviour every engine
// shows the same way: chain shapes (decisions and their arguments, guards,
// sub-workflows, failures and their retry, retries, acknowledgments,
// gates), each run turn by turn with the outcome every turn must come to.
// The local engine's tests (pkg/run) and the Temporal engine's (module
// temporal/) run it, so that a shape one engine handles and the other does
// not fails a test instead of a run. It may import, of this module: chain,
// load, run/record.
package runtest

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Turn is one call of a case: the run itself (the first turn), then one
// resume each, with what it must come to.
type Turn struct {
	// Take, Args, Acks and Rerun are the resume's --take, --arg, --ack
	// and --rerun (the first turn has none). A resume without them
	// retries a failed run.
	Take  string
	Args  map[string]any
	Acks  []string
	Rerun []string

	// Refused, when set, is part of the error the turn must be refused
	// with before anything runs (exit 2); the run stays as it stood, which
	// the next turn shows.
	Refused string
	// Status is the run's status after the turn; State where a workflow
	// stands; Links the names of the links it offers (sorted; nil: not
	// checked); Context the values (as fmt prints them) of context keys
	// of a workflow's result; Output the run's output, as fmt prints it
	// (empty: not checked).
	Status  record.Status
	State   string
	Links   []string
	Context map[string]string
	Output  string
}

// Case is a chain file and the turns one of its chains is run with.
type Case struct {
	Name string
	// Chain is the file's YAML; Run names the chain of it to run.
	Chain  string
	Run    string
	Inputs map[string]string
	Turns  []Turn
}

// Seen is what an engine did with one turn: the run's result after it,
// or the error that refused it.
type Seen struct {
	Result *record.Result
	Err    error
}

// Engine runs a case's chain turn by turn, its steps in dir: the first
// turn starts the run, each next one resumes it with its take, arguments
// and acknowledgments (a resume without them retries a failed run). It
// reports every turn, in order.
type Engine func(t *testing.T, c *chain.Chain, dir string, inputs map[string]string, turns []Turn) []Seen

// Run runs every case of Cases on e and checks each turn.
func Run(t *testing.T, e Engine) {
	for _, tc := range Cases() {
		t.Run(tc.Name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "chains.yaml")
			if err := os.WriteFile(path, []byte(tc.Chain), 0o644); err != nil {
				t.Fatal(err)
			}
			loaded, err := load.Parse(path, []byte(tc.Chain), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := loaded.Named(tc.Run)
			if c == nil {
				t.Fatalf("the case's file has no chain %s", tc.Run)
			}
			seen := e(t, c, dir, tc.Inputs, tc.Turns)
			if len(seen) != len(tc.Turns) {
				t.Fatalf("the engine reported %d turns of %d", len(seen), len(tc.Turns))
			}
			for i, want := range tc.Turns {
				if msg := check(want, seen[i]); msg != "" {
					t.Errorf("turn %d (%s): %s", i, describe(want), msg)
				}
			}
		})
	}
}

// nothingRan is what an error refused before anything ran says of
// itself (exit 2).
type nothingRan interface{ NothingRan() bool }

// check compares one turn with what the engine did; "" when they agree.
func check(want Turn, got Seen) string {
	if want.Refused != "" {
		var nr nothingRan
		switch {
		case got.Err == nil:
			return fmt.Sprintf("want it refused (%q), got a run %s", want.Refused, statusOf(got.Result))
		case !errors.As(got.Err, &nr) || !nr.NothingRan():
			return fmt.Sprintf("refused with %v, which is not an error from before anything ran (exit 2)", got.Err)
		case !strings.Contains(got.Err.Error(), want.Refused):
			return fmt.Sprintf("refused with %q, want it to say %q", got.Err, want.Refused)
		}
		return ""
	}
	if got.Err != nil {
		return fmt.Sprintf("refused: %v", got.Err)
	}
	res := got.Result
	if res == nil {
		return "no result"
	}
	var problems []string
	if res.Status != want.Status {
		problems = append(problems, fmt.Sprintf("status %s, want %s (error %q)", res.Status, want.Status, res.Error))
	}
	if want.State != "" && (res.WorkflowResult == nil || res.State != want.State) {
		problems = append(problems, fmt.Sprintf("at state %q, want %q", stateOf(res), want.State))
	}
	if want.Links != nil {
		var names []string
		if res.WorkflowResult != nil {
			for _, l := range res.Links {
				names = append(names, l.Transition)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, want.Links) {
			problems = append(problems, fmt.Sprintf("links %v, want %v", names, want.Links))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(want.Context)) {
		var v any = "(no context)"
		if res.WorkflowResult != nil {
			v = res.Context[k]
		}
		if fmt.Sprint(v) != want.Context[k] {
			problems = append(problems, fmt.Sprintf("context.%s %v, want %s", k, v, want.Context[k]))
		}
	}
	if want.Output != "" && fmt.Sprint(res.Output) != want.Output {
		problems = append(problems, fmt.Sprintf("output %v, want %s", res.Output, want.Output))
	}
	return strings.Join(problems, "; ")
}

func statusOf(res *record.Result) string {
	if res == nil {
		return "with no result"
	}
	return string(res.Status)
}

func stateOf(res *record.Result) string {
	if res.WorkflowResult == nil {
		return ""
	}
	return res.State
}

// describe names a turn in a failure message.
func describe(t Turn) string {
	if t.Take == "" && t.Acks == nil && t.Args == nil && t.Rerun == nil {
		return "no take"
	}
	s := "--take " + t.Take
	for _, k := range slices.Sorted(maps.Keys(t.Args)) {
		s += fmt.Sprintf(" --arg %s=%v", k, t.Args[k])
	}
	for _, a := range t.Acks {
		s += " --ack " + a
	}
	for _, r := range t.Rerun {
		s += " --rerun " + r
	}
	return s
}
