package chain

import (
	"os"
	"path/filepath"
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
