package occ

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// OCC 29f33c0 mcp-server/tests/loader.test.ts, "buildDependencyGraph":
// which steps share a wave, in order (chainrun's waves are how graph and
// --dry-run show a chain; its runs start a step as soon as what it
// depends on is done), and what the graph refuses: a cycle, an unknown
// dependency, and an output no step produces.
func TestOCCWaves(t *testing.T) {
	cases := []struct {
		name, steps, want string
	}{
		{"linear A->B->C: 3 waves of 1", "A: []\nB: [A]\nC: [B]", "[[A] [B] [C]]"},
		{"parallel A,B->C", "A: []\nB: []\nC: [A, B]", "[[A B] [C]]"},
		{"diamond A->B,C->D", "A: []\nB: [A]\nC: [A]\nD: [B, C]", "[[A] [B C] [D]]"},
		{"single step", "only: []", "[[only]]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "name: g\nversion: \"1.0\"\nsteps:\n"
			for _, line := range strings.Split(tc.steps, "\n") {
				id, deps, _ := strings.Cut(line, ": ")
				src += "  - {id: " + id + ", model: openai/m, prompt: x, output_var: " + id + "_out, depends_on: " + deps + "}\n"
			}
			l, err := Parse("g.yaml", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(l.Chain.Graph().Waves()); got != tc.want {
				t.Fatalf("waves %s, want %s", got, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, steps, want string }{
		{"circular A->B->A", "  - {id: A, model: openai/m, prompt: x, output_var: a_out, depends_on: [B]}\n  - {id: B, model: openai/m, prompt: x, output_var: b_out, depends_on: [A]}\noutput: a_out\n", "cycle"},
		{"unknown dependency", "  - {id: A, model: openai/m, prompt: x, output_var: a_out, depends_on: [nonexistent]}\noutput: a_out\n", `"nonexistent"`},
		{"output no step produces", "  - {id: A, model: openai/m, prompt: x, output_var: a_out}\noutput: missing_var\n", "missing_var"},
	} {
		_, err := Parse("g.yaml", []byte("name: g\nversion: \"1.0\"\nsteps:\n"+tc.steps), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}
