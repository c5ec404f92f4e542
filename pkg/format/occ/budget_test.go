package occ

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// OCC 13d9853 mcp-server/src/loader.ts takes max_context_chars on the
// chain (ChainSchema: `max_context_chars: z.number().optional()`), and
// executor.ts's budget is it, else 50000, off at 0 (`if (maxCtx > 0)`);
// chainrun's own format has no such setting and says where it belongs.
// A pipeline's executor has rules of its own (summarize_output).
func TestOCCMaxContextChars(t *testing.T) {
	const steps = "steps:\n  - {id: a, type: transform, expr: '\"x\"', output_var: a}\noutput: a\n"
	cases := []struct {
		name, src, refusal string
		budget             int
	}{
		{"written", "name: t\nversion: \"1.0\"\nmax_context_chars: 12000\n" + steps, "", 12000},
		{"not written: OCC's default", "name: t\nversion: \"1.0\"\n" + steps, "", ContextBudget},
		{"zero is off", "name: t\nversion: 2\nmax_context_chars: 0\n" + steps, "", 0},
		{"negative is off", "name: t\nversion: 2\nmax_context_chars: -5\n" + steps, "", 0},
		{"chainrun's own format has none", "name: t\n" + steps, "", 0},
		{"refused in chainrun's own format", "name: t\nmax_context_chars: 12000\n" + steps, "max_context_chars is OCC's context budget", 0},
		{"not a number", "name: t\nversion: \"1.0\"\nmax_context_chars: lots\n" + steps, "max_context_chars", 0},
		{"a pipeline has its own rules", "name: p\nmax_context_chars: 100\nchains:\n  - {id: one, chain: other}\noutput: one\n", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("t.yaml", []byte(tc.src), chain.Options{})
			if tc.refusal != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refusal) {
					t.Fatalf("want a refusal naming %q, got %v", tc.refusal, err)
				}
				return
			}
			if err != nil && (!strings.Contains(err.Error(), "other") || strings.Contains(err.Error(), "max_context_chars")) {
				t.Fatal(err)
			}
			if l != nil && l.Chain.ContextBudget() != tc.budget {
				t.Fatalf("budget %d, want %d", l.Chain.ContextBudget(), tc.budget)
			}
		})
	}
}
