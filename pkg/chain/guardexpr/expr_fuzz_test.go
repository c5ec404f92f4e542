package guardexpr

import "testing"

// FuzzGuardExpr holds that any text is either refused with an error or
// compiles to a guard that evaluates without panicking.
func FuzzGuardExpr(f *testing.F) {
	for _, s := range []string{"$.context.a == 1", "$.context.a.b[0] >= $.arguments.x", `$.workflow.input["k"] != 'v'`,
		"!($.context.ok) || $.input.n < 2", "$.context.s starts_with 'a'", "$.", "$.context[", `"$.context.a"`, "$.workflow.id == null"} {
		f.Add(s)
	}
	facts := &GuardFacts{Context: map[string]any{"a": 1, "ok": true, "s": "abc", "b": []any{map[string]any{"c": 2}}},
		Arguments: map[string]any{"x": "3"}, Input: map[string]any{"n": 1, "k": "v"}, RunID: "r", State: "s"}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := compileGuardExpr(src)
		if err != nil {
			return
		}
		_, _ = g.holds(facts)
	})
}
