package chain

import "testing"

// TestCountsHaveCaps: a count that multiplies model calls or transitions
// — an agent's max_turns, a debate's rounds, a workflow's maxChainDepth —
// past its cap is a validation error at its line, as timeout_ms and
// retry.max are; at the cap it loads.
func TestCountsHaveCaps(t *testing.T) {
	debate := func(rounds string) string {
		return "name: x\nsteps:\n  - id: d\n    type: debate\n    model: openai/m\n    prompt: p\n    rounds: " + rounds + "\n    agents: [{role: a, prompt: a}, {role: b, prompt: b}]\n"
	}
	agent := func(turns string) string {
		return "name: x\nsteps:\n  - id: a\n    type: agent\n    model: openai/m\n    prompt: p\n    tools: [Read]\n    max_turns: " + turns + "\n"
	}
	flow := func(depth string) string {
		return "version: '1'\nworkflows:\n  w:\n    initialState: a\n    maxChainDepth: " + depth + "\n    states:\n      a: {terminal: true}\n"
	}
	bad := []struct{ name, src, want string }{
		{"rounds", debate("100000000"), `c.yaml:7:5: step "d": rounds 100000000 is more than 100, the most rounds a debate may run`},
		{"rounds past int", debate("9223372036854775807"), `rounds 9223372036854775807 is more than 100`},
		{"max_turns", agent("1000000000"), `c.yaml:8:5: step "a": max_turns 1000000000 is more than 1000, the most model calls one agent step may make`},
		{"max_turns just past", agent("1001"), `max_turns 1001 is more than 1000`},
		{"maxChainDepth", flow("5000000"), `c.yaml:5:5: workflow "w": maxChainDepth 5000000 is more than 10000`},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) { wantFindings(t, c.src, []string{c.want}, nil) })
	}
	for _, src := range []string{debate("100"), agent("1000"), flow("10000")} {
		if _, err := Parse("c.yaml", []byte(src), Options{}); err != nil {
			t.Errorf("at the cap: %v", err)
		}
	}
}
