package load_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"go.yaml.in/yaml/v4"
)

// TestParseEveryFormat: a file of each format chainrun reads loads through
// the one entry point, as the same model.
func TestParseEveryFormat(t *testing.T) {
	cases := []struct{ name, text, chain string }{
		{"own", "name: own\nsteps:\n  - id: a\n    type: cli\n    run: echo hi\n", "own"},
		{"workflows", "version: \"1\"\nworkflows:\n  wf:\n    initialState: s\n    states:\n      s:\n        terminal: true\n", "wf"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := load.Parse(tc.name+".yaml", []byte(tc.text), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if l.Named(tc.chain) == nil {
				t.Fatalf("no chain %q in %v", tc.chain, l.Chains)
			}
		})
	}
}

// TestLoadFileRefusals: a file that cannot be read or is not a chain is a
// validation error (exit 2) naming the file.
func TestLoadFileRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: x\nsteps: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing.yaml"), bad, dir} {
		_, err := load.LoadFile(path, chain.Options{})
		if !chain.IsValidation(err) {
			t.Fatalf("%s: got %v, want a validation error", path, err)
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("%s: the error does not name the file: %v", path, err)
		}
	}
}

// TestJSONSchemaNamesTheFormats: the schema editors get covers a step and
// a workflows: file.
func TestJSONSchemaNamesTheFormats(t *testing.T) {
	s := load.JSONSchema()
	if s["$schema"] == nil || s["properties"] == nil && s["oneOf"] == nil && s["anyOf"] == nil {
		t.Fatalf("not a JSON Schema: %v", s)
	}
}

// TestFrontEndOrder: a contenox task chain or request and an
// mcp-flowgate gateway configuration that declare version: (which OCC's
// front-end alone would claim as an OCC file) are claimed by their own
// front-ends, which pkg/load tries first.
func TestFrontEndOrder(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"a task chain with version": {"id: t\nversion: 1\ntasks: [{id: a, handler: noop}]\n", "contenox task chain"},
		"a task request":            {"input: hi\nversion: 1\nchain: {id: t, tasks: [{id: a, handler: noop}]}\n", "contenox task chain"},
		"a gateway configuration":   {"version: 1\nproxy: {enabled: true}\n", "mcp-flowgate workflow file"},
	} {
		src := tc.src
		var doc yaml.Node
		if err := yaml.Load([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		first := ""
		for _, f := range load.Formats() {
			if f.Claims(doc.Content[0]) {
				first = f.Name
				break
			}
		}
		if first != tc.want {
			t.Errorf("%s: first claimed by %q, want %q", name, first, tc.want)
		}
	}
}
