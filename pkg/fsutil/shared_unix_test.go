//go:build unix

package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file a project shares (committed, read by other users and builds) is
// written with the mode os.WriteFile would give it: 0666 less the umask,
// also when it replaces a private file.
func TestWriteSharedFollowsTheUmask(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  fs.FileMode
	}{{0o022, 0o644}, {0o027, 0o640}, {0o077, 0o600}, {0o002, 0o664}} {
		old := syscall.Umask(tc.umask)
		dir := t.TempDir()
		p := filepath.Join(dir, "shared.yaml")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{p, filepath.Join(dir, "new.yaml")} {
			if err := WriteShared(path, []byte("x: 1\n"), false); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(path)
			if err != nil || st.Mode().Perm() != tc.want {
				t.Errorf("umask %03o: %s is %v (%v), want %v", tc.umask, filepath.Base(path), st.Mode().Perm(), err, tc.want)
			}
		}
		syscall.Umask(old)
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
			t.Errorf("temporary files left: %v", left)
		}
	}
}
