package chain

import (
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// TestDialectOnlyKeysAreUnknownToChainrun: a key declared for the schema
// that only a front-end's dialect reads (dialect:"peer") is refused as
// unknown by chainrun's own reading, at its line, in the file, a
// workflow and a state; under a dialect with a reader, the key is that
// reader's to take or leave.
func TestDialectOnlyKeysAreUnknownToChainrun(t *testing.T) {
	const wf = "workflows:\n  w:\n    initialState: a\n"
	for _, tc := range []struct{ src, want string }{
		{"audit: {sink: stdout}\n" + wf + "    states: {a: {terminal: true}}\n", `c.yaml:1:1: unknown field "audit" (a workflow file holds version and workflows)`},
		{"include: []\n" + wf + "    states: {a: {terminal: true}}\n", `c.yaml:1:1: unknown field "include"`},
		{"overrides: []\n" + wf + "    states: {a: {terminal: true}}\n", `c.yaml:1:1: unknown field "overrides"`},
		{wf + "    examples: [{x: 1}]\n    states: {a: {terminal: true}}\n", `c.yaml:4:5: workflow "w": unknown field "examples"`},
		{wf + "    enable_human_ask: true\n    states: {a: {terminal: true}}\n", `c.yaml:4:5: workflow "w": unknown field "enable_human_ask"`},
		{wf + "    states:\n      a: {terminal: true, delegate: reviewer}\n", `c.yaml:5:27: state "a": unknown field "delegate"`},
	} {
		_, err := Parse("c.yaml", []byte(tc.src), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
		var doc yaml.Node
		if err := yaml.Load([]byte(tc.src), &doc); err != nil {
			t.Fatal(err)
		}
		d := &yamlpos.Diags{File: "c.yaml"}
		var took []string
		leave := func(_ *yamlpos.Diags, k, _ *yaml.Node) bool { took = append(took, k.Value); return false }
		DecodeWorkflowFile(d, doc.Content[0], WorkflowDialect{
			FileKey:     leave,
			WorkflowKey: func(d *yamlpos.Diags, _ *Chain, k, v *yaml.Node, _ string) bool { return leave(d, k, v) },
			StateKey:    func(d *yamlpos.Diags, _ *State, k, v *yaml.Node, _ string) bool { return leave(d, k, v) },
		})
		_, key, _ := strings.Cut(tc.want, `unknown field "`)
		key, _, _ = strings.Cut(key, `"`)
		if errs := d.Errs(); len(errs) > 0 || !slices.Contains(took, key) {
			t.Errorf("%q under a dialect: keys handed over %q (want %s), errors %v", tc.src, took, key, errs)
		}
	}
}
