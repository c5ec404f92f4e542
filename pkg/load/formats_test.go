package load_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// TestFrontEndsReachEveryLoader: a peer's file is read by its front-end
// however it is reached: load.Parse, load.LoadFile, and a chain.Library
// or catalog opened with load.Options (what cmd opens, so a chain step
// calling an OCC file, or `chainrun run NAME`, reads it as OCC's); a
// library opened without the front-ends reads chainrun's own format only.
func TestFrontEndsReachEveryLoader(t *testing.T) {
	dir := t.TempDir()
	src := "name: occfile\nversion: \"1.0\"\nsteps:\n  - {id: a, model: openai/m, prompt: hi}\n"
	path := filepath.Join(dir, "occfile.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	source := func(l *chain.Loaded, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return l.Chain.Reading().Source
	}
	lib := &catalog.Library{Dir: dir}
	cat, err := catalog.Open(dir, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{
		"Parse":           source(load.Parse("occfile.yaml", []byte(src), chain.Options{})),
		"LoadFile":        source(load.LoadFile(path, chain.Options{})),
		"Library by path": source(lib.Resolve(path)),
		"Library by name": source((&catalog.Library{Dir: dir}).Resolve("occfile")),
		"catalog":         source(cat.Find("occfile")),
		"no front-ends":   source(chain.LoadFile(path, chain.Options{})),
	}
	want := map[string]string{"Parse": "OCC", "LoadFile": "OCC", "Library by path": "OCC", "Library by name": "OCC", "catalog": "OCC", "no front-ends": ""}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: reading %q, want %q", k, got[k], w)
		}
	}
}
