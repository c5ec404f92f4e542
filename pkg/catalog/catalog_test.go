package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestCatalogHoldsEveryWorkflowOfAFile: a file of several workflows
// gives the catalog one entry each, found by its own name.
func TestCatalogHoldsEveryWorkflowOfAFile(t *testing.T) {
	src := "version: '1'\nworkflows:\n  one: {initialState: a, states: {a: {terminal: true}}}\n  two: {initialState: b, states: {b: {terminal: true}}}\n"
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/w.yaml", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := Open(dir, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cat.Names(), ","); got != "one,two" {
		t.Errorf("catalog names %s", got)
	}
	if found, err := cat.Find("two"); err != nil || found.Chain.Name != "two" {
		t.Errorf("find two: %v %v", found, err)
	}
}

// TestChainsDirWithSymlinkLoops: a chains directory full of symlink loops
// and dangling links is read, each bad entry reported, the good chain
// found.
func TestChainsDirWithSymlinkLoops(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.yaml"), []byte("name: good\nsteps:\n  - {id: a, type: transform, expr: '1'}\n"), 0o644)
	for i := range 20 {
		a, b := filepath.Join(dir, fmt.Sprintf("loop%d.yaml", i)), filepath.Join(dir, fmt.Sprintf("loop%d-b.yaml", i))
		os.Symlink(b, a)
		os.Symlink(a, b)
	}
	os.Symlink(filepath.Join(dir, "missing.yaml"), filepath.Join(dir, "dangling.yaml"))
	os.Symlink(dir, filepath.Join(dir, "self.yaml"))
	done := make(chan struct{})
	var cat *Catalog
	var err error
	go func() {
		cat, err = Open(dir, chain.Options{})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("reading the chains directory hangs")
	}
	if err != nil {
		t.Fatal(err)
	}
	if l, err := cat.Find("good"); err != nil || l.Chain.Name != "good" {
		t.Fatalf("good: %v", err)
	}
	bad := 0
	for _, f := range cat.Files {
		if f.Err != nil {
			bad++
			if !strings.Contains(f.Err.Error(), f.Path) {
				t.Errorf("error does not name its file: %v", f.Err)
			}
		}
	}
	if bad < 40 {
		t.Errorf("%d bad entries reported", bad)
	}
}
