package store

import (
	"os"
	"path/filepath"
	"testing"
)

// A project reached through a symbolic link holds the runs started in its
// real directory, and the other way round (a run records the directory
// it started in with its links resolved).
func TestWithinThroughALink(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	realBase, _ := filepath.EvalSymlinks(real)
	for _, tc := range []struct {
		dir, root string
		want      bool
	}{
		{filepath.Join(realBase, "sub"), link, true},
		{realBase, link, true},
		{filepath.Join(realBase, "sub"), realBase, true},
		{realDir(filepath.Join(link, "sub")), realBase, true},
		{filepath.Join(base, "elsewhere"), link, false},
		{"", link, false},
		{"/anything", "", true},
	} {
		if got := within(tc.dir, tc.root); got != tc.want {
			t.Errorf("within(%q, %q) = %v, want %v", tc.dir, tc.root, got, tc.want)
		}
	}
}
