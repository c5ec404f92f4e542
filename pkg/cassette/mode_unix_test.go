//go:build unix

package cassette

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A cassette is committed with the tests: it is written readable as the
// umask allows (0644 under 022), not private to its writer.
func TestCassetteIsWrittenForTheProject(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "x.cassette.yaml")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewSession(c, "one", ModeMissing, models{&live{}}, nil, nil)
	if _, err := ask(t, rec, "agent", "hello"); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, %v; want 0644", st.Mode().Perm(), err)
	}
}
