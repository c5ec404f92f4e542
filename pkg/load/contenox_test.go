package load_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// TestParseContenox: a contenox task chain and a request body holding
// one load through pkg/load, by their front-end, as one workflow; a file
// that also holds workflows: stays chainrun's.
func TestParseContenox(t *testing.T) {
	task := `{"id": "tc", "tasks": [{"id": "a", "handler": "noop"}]}`
	for _, tt := range []struct{ name, text, chain string }{
		{"task chain", task, "tc"},
		{"yaml task chain", "id: ty\ntasks:\n  - {id: a, handler: noop}\n", "ty"},
		{"request body", `{"input": "hi", "inputType": "string", "chain": ` + task + `}`, "tc"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := load.Parse("c.json", []byte(tt.text), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := l.Named(tt.chain)
			if c == nil || c.Workflow == nil || c.Workflow.State("a") == nil {
				t.Fatalf("no workflow %q with state a in %v", tt.chain, l.Chains)
			}
		})
	}
	_, err := load.Parse("c.yaml", []byte("id: x\ntasks: []\nworkflows: {}\n"), chain.Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown field "tasks" (a workflow file holds version and workflows)`) {
		t.Errorf("a workflows: file holding tasks was not read as a workflows: file: %v", err)
	}
}

// TestCatalogFindsTaskChains: in a chains directory, a JSON task chain is
// a chain and other JSON is not; a task chain that fails validation is
// still found by its id, so that running it reports its errors.
func TestCatalogFindsTaskChains(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"good.json":   `{"id": "good", "tasks": [{"id": "a", "handler": "noop"}]}`,
		"broken.json": `{"id": "broken", "tasks": [{"id": "a", "handler": "chat_complete"}]}`,
		"schema.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`,
		"own.yaml":    "name: own\nsteps:\n  - {id: a, type: noop}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := catalog.Open(dir, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range cat.Files {
		names = append(names, f.Name)
		if wantErr := f.Name == "broken"; (f.Err != nil) != wantErr {
			t.Errorf("%s: error %v", f.Name, f.Err)
		}
	}
	slices.Sort(names)
	if want := []string{"broken", "good", "own"}; !slices.Equal(names, want) {
		t.Errorf("catalog names %q, want %q", names, want)
	}
	_, err = catalog.FindIn(dir, "broken", chain.Options{})
	if err == nil || !strings.Contains(err.Error(), `handler "chat_complete" is not one chainrun can run`) {
		t.Errorf("FindIn broken: %v, want its validation errors", err)
	}
}
