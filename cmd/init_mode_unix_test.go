//go:build unix

package cmd

import (
	"context"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// init's files are the project's, to commit and share: 0666 and 0777
// less the umask, as an editor or mkdir would make them.
func TestInitFilesAreTheProjects(t *testing.T) {
	for _, tc := range []struct {
		umask         int
		file, dirMode fs.FileMode
	}{{0o022, 0o644, 0o755}, {0o027, 0o640, 0o750}} {
		old := syscall.Umask(tc.umask)
		dir := t.TempDir()
		io, _, _, errOut := iostreams.Test()
		code := Execute(context.Background(), io, []string{"init", dir})
		syscall.Umask(old)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == dir {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			want := tc.file
			if d.IsDir() {
				want = tc.dirMode
			}
			if info.Mode().Perm() != want {
				t.Errorf("umask %03o: %s is %v, want %v", tc.umask, p, info.Mode().Perm(), want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
