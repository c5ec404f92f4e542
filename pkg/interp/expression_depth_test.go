package interp

import (
	"strings"
	"testing"
)

// TestExpressionValuesNestNoDeeperThanARunReadsBack: a value nested past
// ExprMaxDepth — lists in lists, maps in maps, both by turns, built in a
// transform or a workflow's output mapping — fails its evaluation naming
// the bound, instead of reaching a run's journal that could not be read
// back; a value at the bound, and a wide one, are kept.
func TestExpressionValuesNestNoDeeperThanARunReadsBack(t *testing.T) {
	deep := []string{
		`reduce(1..20000, [#acc], [])`,
		`reduce(1..1500, ({"k": #acc}), {})`,
		`reduce(1..1200, # % 2 == 0 ? [#acc] : {"m": #acc}, 0)`,
		`[reduce(1..1000, [#acc], [])]`,
	}
	for _, src := range deep {
		t.Run(src, func(t *testing.T) {
			e, err := CompileExpression(src, func(string) bool { return false }, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Eval(map[string]any{}); err == nil || !strings.Contains(err.Error(), "more than 1000 levels deep") {
				t.Errorf("transform: %v, want the depth refused", err)
			}
		})
	}
	for _, src := range []string{`reduce(1..999, [#acc], [])`, `map(1..100000, [[#]])`, `{"a": [{"b": [1]}]}`} {
		e, err := CompileExpression(src, func(string) bool { return false }, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Eval(map[string]any{}); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}
