package occ

import (
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// TestClaims: the front-end claims a DAG chain file whose reading is
// OCC's to decide (OCC's keys, OCC's file, or one mixing OCC's step types
// with chainrun's own), and leaves chainrun's own files and every other
// format's (workflows:) to their readers, whatever version: they declare.
// A contenox task chain or request and an mcp-flowgate gateway
// configuration are claimed by their front-ends, which pkg/load tries
// first (TestFrontEndOrder).
func TestClaims(t *testing.T) {
	cases := []struct {
		name, src string
		want      bool
	}{
		{"OCC's version", "name: a\nversion: \"1.0\"\nsteps: [{id: s, prompt: hi}]\n", true},
		{"a pipeline", "name: p\nchains: [{id: a, chain: b}]\n", true},
		{"a pipeline beside chainrun's tools", "name: p\ntools: []\nchains: [{id: a, chain: b}]\n", true},
		{"OCC's budget in chainrun's own file", "name: a\nmax_context_chars: 10\nsteps: [{id: s, type: cli, command: echo}]\n", true},
		{"an OCC-only step type", "name: a\nsteps: [{id: r, type: gate, prompt: ok?}]\n", true},
		{"mixed: warned, read as chainrun's", "name: a\nsteps: [{id: r, type: gate, prompt: ok?}, {id: c, type: cli, command: echo}]\n", true},
		{"chainrun's own", "name: a\nsteps: [{id: c, type: cli, command: echo}]\n", false},
		{"chainrun's own with version", "name: a\nversion: 2\nsteps: [{id: c, type: cli, command: echo}]\n", false},
		{"chainrun's own key with an OCC type", "name: a\nbudget: {max_tokens: 9}\nsteps: [{id: r, type: gate, prompt: ok?}]\n", false},
		{"workflows with version", "version: \"1\"\nworkflows:\n  wf:\n    initialState: s\n    states: {s: {terminal: true}}\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.src), &doc); err != nil {
				t.Fatal(err)
			}
			if got := claims(doc.Content[0]); got != tc.want {
				t.Fatalf("claims = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReadingOnlyForOCCFiles: a file the front-end claims carries OCC's
// Reading only when it reads as OCC's; chainrun's own file it claims (a
// mixed one, one with max_context_chars) keeps chainrun's, with the
// warning or refusal that says so.
func TestReadingOnlyForOCCFiles(t *testing.T) {
	l := mustParse(t, "name: a\nversion: \"1.0\"\nsteps: [{id: s, model: openai/m, prompt: hi}]\n")
	if r := l.Chain.Reading(); r.Source != "OCC" || !r.LooseReferences || r.ContextBudget != ContextBudget || r.ReadCondition == nil {
		t.Fatalf("OCC's file reads %+v", r)
	}
	l = mustParse(t, "name: a\ninputs: [x]\nsteps: [{id: r, type: gate, prompt: ok?}, {id: c, type: cli, command: echo, depends_on: [r]}]\n")
	if l.Chain.Reading().Source != "" || len(l.Warnings) != 1 {
		t.Fatalf("a mixed file reads %+v, warnings %v", l.Chain.Reading(), l.Warnings)
	}
	if got := findings(t, "name: a\nmax_context_chars: 10\nsteps: [{id: c, type: cli, command: echo}]\n"); len(got) != 1 {
		t.Fatalf("max_context_chars in chainrun's own file: %q", got)
	}
}
