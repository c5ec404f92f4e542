package wfyaml_test

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"

	_ "github.com/chainrun/chainrun/pkg/builtin" // every kind, as a program that loads files links them
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// This package's init registers the reader: a second one is refused.
func TestReaderIsRegistered(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a second reader of workflows: files was accepted: none was registered")
		}
	}()
	chain.RegisterWorkflowReader(func(*yamlpos.Diags, *yaml.Node, chain.WorkflowDialect) []*chain.Chain { return nil })
}

// chain.DecodeWorkflowFile reads through the registered reader: the
// workflows in the order written, their states, a capability reference
// resolved, and the file's shape errors.
func TestDecodeWorkflowFileReadsThroughTheRegisteredReader(t *testing.T) {
	cases := []struct {
		name, src string
		workflows []string
		states    int // of the first workflow
		err       string
	}{
		{"two workflows", "version: '1'\nworkflows:\n  second:\n    initialState: a\n    states: {a: {terminal: true}}\n  first:\n    initialState: x\n    states: {x: {transitions: {go: {target: y}}}, y: {terminal: true}}\n", []string{"second", "first"}, 1, ""},
		{"a capability's executor", "version: '1'\ncapabilities:\n  lint: {executor: {kind: cli, run: make lint}}\nworkflows:\n  w:\n    initialState: a\n    states:\n      a: {transitions: {go: {target: b, executor: {capability: lint}}}}\n      b: {terminal: true}\n", []string{"w"}, 2, ""},
		{"workflows as a list", "version: '1'\nworkflows:\n  - {definitionId: w}\n", nil, 0, "workflows must map each workflow's name to its definition, not list them"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Load([]byte(tc.src), &doc); err != nil {
				t.Fatal(err)
			}
			d := &yamlpos.Diags{File: "w.yaml", Src: []byte(tc.src)}
			chains := chain.DecodeWorkflowFile(d, doc.Content[0], chain.WorkflowDialect{})
			var errs []string
			for _, e := range d.Errs() {
				errs = append(errs, e.Message)
			}
			if tc.err != "" {
				if !strings.Contains(strings.Join(errs, "\n"), tc.err) {
					t.Fatalf("errors %q, want %q", errs, tc.err)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var names []string
			for _, c := range chains {
				names = append(names, c.Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.workflows, ",") {
				t.Fatalf("workflows %v, want %v", names, tc.workflows)
			}
			w := chains[0].Workflow
			if len(w.States) != tc.states || w.State(w.States[0].Name) != w.States[0] {
				t.Errorf("states %d (found by name: %v), want %d", len(w.States), w.State(w.States[0].Name) != nil, tc.states)
			}
			if tc.name == "a capability's executor" {
				if e := w.State("a").Transition("go").Executor; e == nil || e.Type != "cli" {
					t.Errorf("executor %+v, want the capability's cli step", e)
				}
			}
		})
	}
}
