package guardexpr

import (
	"strings"
	"testing"
)

// TestOutputMappingValuesNestNoDeeperThanARunReadsBack: a value nested
// past interp.ExprMaxDepth built in a workflow's output mapping fails its
// evaluation naming the bound, as a transform's does (pkg/interp).
func TestOutputMappingValuesNestNoDeeperThanARunReadsBack(t *testing.T) {
	for _, src := range []string{
		`reduce(1..20000, [#acc], [])`,
		`reduce(1..1500, ({"k": #acc}), {})`,
		`reduce(1..1200, # % 2 == 0 ? [#acc] : {"m": #acc}, 0)`,
		`[reduce(1..1000, [#acc], [])]`,
	} {
		g, err := compileExpr(src, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.eval(&GuardFacts{}, nil); err == nil || !strings.Contains(err.Error(), "more than 1000 levels deep") {
			t.Errorf("%s: %v, want the depth refused", src, err)
		}
	}
}
