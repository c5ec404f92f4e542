package occ

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestOCCPipelineLoads: an OCC pipeline file's chains are chain steps:
// inputs are their with, ids their output_var; a pipeline with steps too,
// or an unknown field in one of its chains, is exit 2.
func TestOCCPipelineLoads(t *testing.T) {
	l := mustParse(t, "name: p\ninputs: [topic]\nchains:\n  - id: research\n    chain: deep-researcher\n    inputs: {topic: '{input.topic}'}\n  - {id: write, chain: content-engine, depends_on: [research], inputs: {notes: '{research}'}}\noutput: write\n")
	s := l.Chain.Steps[1]
	if s.Kind != chain.KindChain || chain.Call(s).Chain != "content-engine" || chain.Call(s).With["notes"] != "{research}" || s.OutputVar != "write" || !slices.Equal(s.DependsOn, []string{"research"}) {
		t.Errorf("step %+v", s)
	}
	if len(l.Warnings) != 0 {
		t.Errorf("warnings %v", l.Warnings)
	}
	cases := []struct{ src, want string }{
		{"name: p\nsteps:\n  - {id: a, type: cli, command: echo}\nchains:\n  - {id: b, chain: c}\n", "c.yaml:4:1: a file has steps or chains (an OCC pipeline), not both"},
		{"name: p\nchains:\n  - {id: b, chain: c, summarize: true}\n", `c.yaml:3:23: chains "b": unknown field "summarize"`},
		{"name: p\nchains:\n  - {id: b, inputs: {x: y}}\n", `c.yaml:3:5: step "b": chain is required for a chain step (the name of the chain to call)`},
	}
	for _, tc := range cases {
		if got := findings(t, tc.src); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
