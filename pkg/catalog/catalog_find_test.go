package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

func writeChains(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFindInAnswersAsTheCatalogDoes: finding one chain by name gives
// what loading the whole directory gives, the chain or the same error.
func TestFindInAnswersAsTheCatalogDoes(t *testing.T) {
	dir := writeChains(t, map[string]string{
		"a.yaml":    "name: alpha\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"b.yml":     "name: beta\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"dup1.yaml": "name: twin\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"dup2.yaml": "name: twin\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"bad.yaml":  "name: broken\nsteps:\n  - {id: s, type: nosuchkind}\n",
		"wf.yaml":   "version: '1'\nworkflows:\n  flow:\n    initialState: a\n    states:\n      a: {terminal: true}\n",
		"notes.txt": "not a chain",
	})
	cat, err := Open(dir, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpha", "beta", "twin", "broken", "flow", "alpah", "gamma"} {
		want, wantErr := cat.Find(name)
		got, gotErr := FindIn(dir, name, chain.Options{})
		if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%s: got %v %v, want %v %v", name, got, gotErr, want, wantErr)
		}
	}
	var nf *NotFoundError
	if _, err := FindIn(dir, "alpah", chain.Options{}); !errors.As(err, &nf) || !strings.Contains(err.Error(), "did you mean alpha") {
		t.Errorf("a misspelt name: %v", err)
	}
	if _, err := FindIn(filepath.Join(dir, "missing"), "alpha", chain.Options{}); err == nil || !strings.Contains(err.Error(), "chains directory not found") {
		t.Errorf("a missing directory: %v", err)
	}
}

// TestFindInLoadsOnlyItsFile: a sibling that fails validation does not
// stand in the way, and its warnings are not the found chain's.
func TestFindInLoadsOnlyItsFile(t *testing.T) {
	dir := writeChains(t, map[string]string{
		"a.yaml":   "name: alpha\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"bad.yaml": "name: broken\nsteps:\n  - {id: s, type: cli, command: echo, depends_on: [nowhere]}\n",
	})
	l, err := FindIn(dir, "alpha", chain.Options{})
	if err != nil || l.Chain.Name != "alpha" || len(l.Warnings) != 0 {
		t.Fatalf("%+v %v", l, err)
	}
	if _, err := FindIn(dir, "broken", chain.Options{}); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("the broken file's own errors: %v", err)
	}
}

// BenchmarkFindOneChain: finding the bundled hello chain by name, against
// loading the whole bundled directory as `run NAME` did.
func BenchmarkFindOneChain(b *testing.B) {
	dir := filepath.Join("..", "..", "chains")
	b.Run("FindIn", func(b *testing.B) {
		for b.Loop() {
			if _, err := FindIn(dir, "hello", chain.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("WholeCatalog", func(b *testing.B) {
		for b.Loop() {
			cat, err := Open(dir, chain.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := cat.Find("hello"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
