package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestLibraryLoadsEachChainOnce: a name or a path resolves to the same
// chain however often it is asked, also from many goroutines, and an
// edit of the file after the first load does not change it.
func TestLibraryLoadsEachChainOnce(t *testing.T) {
	dir := writeChains(t, map[string]string{"a.yaml": "name: alpha\nsteps:\n  - {id: s, type: cli, command: echo}\n"})
	lib := &Library{Dir: dir}
	first, err := lib.Resolve("alpha")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("name: alpha\nsteps:\n  - {id: changed, type: cli, command: echo}\n"), 0o600)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got, err := lib.Resolve("alpha"); err != nil || got != first {
				t.Errorf("a second resolve: %v %v", got, err)
			}
		})
	}
	wg.Wait()
	path := filepath.Join(dir, "a.yaml")
	byPath, err := lib.Resolve(path)
	if err != nil || byPath.Chain.Steps[0].ID != "changed" {
		t.Fatalf("by path: %v", err)
	}
	if again, _ := lib.Resolve(path); again != byPath {
		t.Error("a path was loaded twice")
	}
	if _, err := lib.Resolve("nope"); err == nil {
		t.Error("an unknown name resolved")
	}
	cat, err := lib.Catalog()
	if err != nil || len(cat.Files) != 1 {
		t.Fatalf("%v %v", cat, err)
	}
}

// TestResolveFromTheCallersSide: a chain the chains directory lacks (or
// a chains directory that does not exist) is found beside the calling
// file, then in the chains/ beside its directory, as OCC lays pipelines
// out; the directory's own chain wins, and a name found nowhere keeps the
// directory's error.
func TestResolveFromTheCallersSide(t *testing.T) {
	root := t.TempDir()
	write := func(rel, name string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("name: "+name+"\nsteps:\n  - {id: s, type: cli, command: echo}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pipeline := write("occ/pipelines/launch.yaml", "launch")
	write("occ/pipelines/sibling.yaml", "sibling")
	want := write("occ/chains/research.yaml", "research")
	write("lib/research.yaml", "research")
	for _, tc := range []struct {
		dir, name, file, err string
	}{
		{filepath.Join(root, "missing"), "research", want, ""},
		{filepath.Join(root, "missing"), "sibling", filepath.Join(root, "occ/pipelines/sibling.yaml"), ""},
		{filepath.Join(root, "lib"), "research", filepath.Join(root, "lib/research.yaml"), ""},
		{filepath.Join(root, "missing"), "nowhere", "", "chains directory not found"},
		{filepath.Join(root, "lib"), "nowhere", "", `no chain named "nowhere"`},
	} {
		lib := &Library{Dir: tc.dir}
		got, err := lib.ResolveFrom(tc.name, pipeline)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s in %s: %v, want an error holding %q", tc.name, tc.dir, err, tc.err)
			}
			continue
		}
		if err != nil || got.Chain.File != tc.file {
			t.Errorf("%s in %s: %v %v, want %s", tc.name, tc.dir, got, err, tc.file)
		}
	}
}
