package chain

import (
	"fmt"
	"strings"
	"testing"
)

// chain10k is a 10,000-step chain: layers of 100 cli steps, each reading
// the output of two steps of the layer before.
func chain10k() []byte {
	var b strings.Builder
	b.WriteString("name: big\ninputs: [{name: topic}]\nsteps:\n")
	const width = 100
	for i := range 10000 {
		fmt.Fprintf(&b, "  - id: s%d\n    type: cli\n    command: echo\n    output_var: v%d\n", i, i)
		if i < width {
			b.WriteString("    args: [\"{input.topic}\"]\n")
			continue
		}
		a, c := i-width, i-width+(i+1)%width-i%width
		fmt.Fprintf(&b, "    depends_on: [s%d, s%d]\n    args: [\"{v%d}\", \"{v%d}\"]\n", a, c, a, c)
		if i%10 == 0 {
			fmt.Fprintf(&b, "    condition: '{v%d} != \"stop\"'\n", a)
		}
	}
	b.WriteString("output: v9999\n")
	return []byte(b.String())
}

// BenchmarkLoad10k loads and validates a 10,000-step chain (target: under
// 200 ms).
func BenchmarkLoad10k(b *testing.B) {
	data := chain10k()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("big.yaml", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadWorkflow1000 loads and validates a 1,000-state workflow
// whose executors use conditions and templates, so that checking names
// against a large workflow stays linear.
func BenchmarkLoadWorkflow1000(b *testing.B) {
	var src strings.Builder
	src.WriteString("version: '1'\nworkflows:\n  long:\n    initialState: s0\n    states:\n")
	for i := range 1000 {
		fmt.Fprintf(&src, "      s%d:\n        transitions:\n          t%d:\n            target: s%d\n            actor: deterministic\n            condition: 'len(context) >= 0'\n            executor: {kind: transform, expr: 'len(string(%d)) + 1'}\n", i, i, i+1, i)
	}
	src.WriteString("      s1000: {terminal: true}\n")
	data := []byte(src.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("long.yaml", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
