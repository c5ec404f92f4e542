//go:build unix

package tools

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file the Write tool makes gets the mode an editor would give it, 0666
// less the umask; one it replaces keeps its own.
func TestWriteMakesFilesAsTheUmaskSays(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  fs.FileMode
	}{{0o022, 0o644}, {0o027, 0o640}, {0o077, 0o600}} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "script.sh"), []byte("old"), 0o750); err != nil {
			t.Fatal(err)
		}
		old := syscall.Umask(tc.umask)
		_, err1 := Run(t.Context(), Env{Dir: dir}, "Write", []byte(`{"file_path": "new.txt", "content": "x"}`))
		_, err2 := Run(t.Context(), Env{Dir: dir}, "Write", []byte(`{"file_path": "script.sh", "content": "echo"}`))
		syscall.Umask(old)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for name, want := range map[string]fs.FileMode{"new.txt": tc.want, "script.sh": 0o750} {
			if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Mode().Perm() != want {
				t.Errorf("umask %03o: %s is %v (%v), want %v", tc.umask, name, st.Mode().Perm(), err, want)
			}
		}
	}
}
