package flowgate

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestFlowgateUnregisteredKindLoads: a workflows: file's executor (or
// fallback) of a kind that is no misspelling of chainrun's loads, as
// mcp-flowgate loads it (execute_with_reliability fails it when it runs:
// "executor kind '…' is not registered"), warned of at its line and kept
// as Unregistered for the run to refuse; a misspelling and a DAG step's
// unknown type stay refused.
func TestFlowgateUnregisteredKindLoads(t *testing.T) {
	const wf = "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n"
	for _, tc := range []struct{ name, src, kind, warn string }{
		{"executor", wf + "            executor: {kind: teleport, where: mars}\n      b: {terminal: true}\n", "teleport",
			`u.yaml:10:24: warning: transition "go" executor: unknown kind "teleport": loaded as mcp-flowgate loads it`},
		{"fallback", wf + "            executor: {kind: noop}\n            reliability: {fallback: {executors: [{kind: quantum}]}}\n      b: {terminal: true}\n", "quantum",
			`transition "go" fallback 1: unknown kind "quantum": loaded as mcp-flowgate loads it`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("u.yaml", []byte(tc.src), Options{})
			if err != nil {
				t.Fatalf("refused what mcp-flowgate loads: %v", err)
			}
			if said := warningsOf(l); !strings.Contains(said, tc.warn) {
				t.Errorf("warnings %s\nwant %s", said, tc.warn)
			}
			var found *chain.Step
			l.Chain.Walk(func(s *chain.Step) {
				if s.Unregistered() != "" {
					found = s
				}
			})
			if found == nil || found.Unregistered() != tc.kind || !strings.Contains(found.UnregisteredMessage(), "executor kind '"+tc.kind+"' is not registered") {
				t.Fatalf("no step kept as unregistered %q: %+v", tc.kind, found)
			}
		})
	}
	for _, src := range []string{
		wf + "            executor: {kind: shel, run: x}\n      b: {terminal: true}\n",
		"name: d\nsteps:\n  - {id: a, type: teleport}\n",
	} {
		if _, err := Parse("u.yaml", []byte(src), Options{}); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Errorf("want the kind refused, got %v", err)
		}
	}
}
