package wfcheck_test

import (
	"strings"
	"testing"

	_ "github.com/chainrun/chainrun/pkg/builtin" // every kind, as a program that loads files links them
	"github.com/chainrun/chainrun/pkg/chain"
	_ "github.com/chainrun/chainrun/pkg/chain/wfyaml" // the reader of workflows: files
)

// This package's init registers the checker: a second one is refused.
func TestCheckerIsRegistered(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a second checker of workflows was accepted: none was registered")
		}
	}()
	chain.RegisterWorkflowCheck(func(chain.WorkflowChecker) {})
}

// chain.ParseAs validates every workflow of a file through the registered
// checker: a finding of each concern (a state's shape, a transition's
// condition, a branch, the blackboard, reachability) comes from here.
func TestParseChecksThroughTheRegisteredChecker(t *testing.T) {
	head := "version: '1'\nworkflows:\n  w:\n    initialState: a\n"
	cases := []struct {
		name, src, want string
		fails           bool
	}{
		{"initial state unknown", "version: '1'\nworkflows:\n  w:\n    initialState: strt\n    states:\n      start: {terminal: true}\n", `initialState "strt" is not a state (did you mean start?)`, true},
		{"condition reads nothing", head + "    states:\n      a:\n        transitions:\n          go: {target: b, actor: deterministic, condition: 'missing > 1'}\n      b: {terminal: true}\n", `condition "missing > 1": no input, context`, true},
		{"edge branch count", head + "    states:\n      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: edge_traversed_at_least, edge: 'a->b', when: 'twice', goto: b}, {operator: default, goto: end}]\n      b: {terminal: true}\n", `when "twice" is not a count`, true},
		{"slot constraint kind", head + "    blackboard:\n      files: {type: array, constraint: {glob_only: {}}}\n    states:\n      a: {terminal: true}\n", `unknown constraint kind "glob_only"`, true},
		{"unreachable state", head + "    states:\n      a: {terminal: true}\n      lost: {terminal: true}\n", `state "lost" is unreachable`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := chain.Parse("w.yaml", []byte(tc.src), chain.Options{})
			var got string
			switch {
			case tc.fails && err == nil:
				t.Fatal("loaded; want a refusal")
			case tc.fails:
				got = err.Error()
			case err != nil:
				t.Fatal(err)
			default:
				for _, w := range l.Warnings {
					got += w.Message + "\n"
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want it to contain %q", got, tc.want)
			}
		})
	}
}
