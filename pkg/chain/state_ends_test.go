package chain

import (
	"strings"
	"testing"
)

// TestStateEndsAsFlowgateReadsThem: mcp-flowgate's validate.rs (9368194
// to f8d8f07) only warns of a non-terminal state with no transitions
// ("non-terminal with no outgoing transitions", not said when onTimeout
// can move a run from it), and its runtime offers nothing at a terminal
// state (links() returns none there), whatever transitions it lists.
// Both load with a warning that says what a run does there.
func TestStateEndsAsFlowgateReadsThem(t *testing.T) {
	for _, tc := range []struct{ name, head, states, warn string }{
		{"no way out", "", "      stuck: {goal: wait}\n", `state "stuck" has no way out: a run that reaches it waits there for ever, as in mcp-flowgate`},
		{"no way out, a timeout", "    timeoutMs: 60000\n    onTimeout: {target: done}\n", "      stuck: {}\n", `state "stuck" has no way out: a run that reaches it waits there until its timeoutMs moves it to done`},
		{"terminal with transitions", "", "      stuck:\n        transitions: {back: {target: a}}\n      done:\n        terminal: true\n        transitions: {again: {target: a}}\n",
			`state "done" is terminal: its transitions are never offered, as in mcp-flowgate (a run ends there): drop them, or drop terminal: true`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "workflows:\n  w:\n" + tc.head + "    initialState: a\n    states:\n      a:\n        transitions: {go: {target: stuck, actor: deterministic}}\n" + tc.states
			if !strings.Contains(tc.states, "done:") {
				src += "      done: {terminal: true}\n"
			}
			l, err := Parse("s.yaml", []byte(src), Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if said := warningsOf(l); !strings.Contains(said, tc.warn) {
				t.Errorf("no warning %q in:\n%s", tc.warn, said)
			}
		})
	}
}
