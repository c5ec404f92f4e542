//go:build unix

package store

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestAnIndexFileThatIsNoFileIsNeverWaitedOn: runs.index or runs.stamp
// replaced by a FIFO nobody writes, a directory or a device: every
// reader answers at once, and right, from runs/ or a rebuilt index.
func TestAnIndexFileThatIsNoFileIsNeverWaitedOn(t *testing.T) {
	for _, file := range []string{indexFile, stampFile} {
		for kind, create := range map[string]func(string) error{
			"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
			"directory": func(p string) error { return os.Mkdir(p, 0o700) },
			"device":    func(p string) error { return os.Symlink("/dev/zero", p) },
		} {
			t.Run(file+" "+kind, func(t *testing.T) {
				s := Open(t.TempDir())
				for i := 1; i <= 3; i++ {
					saveIndexed(t, s, testID(i), "c", "/p")
				}
				s.List()
				p := filepath.Join(s.Dir(), file)
				os.Remove(p)
				if err := create(p); err != nil {
					t.Skip(err)
				}
				done := make(chan []string, 1)
				go func() {
					for range 2 { // the second reads what the first left
						saveIndexed(t, s, testID(10), "c", "/p")
						os.RemoveAll(s.runDir(testID(10)))
					}
					got, _ := s.List()
					last, _ := s.Resolve(Last)
					part, _ := s.Resolve(testID(2)[20:])
					done <- append(ids(got), last, part)
				}()
				select {
				case got := <-done:
					want := []string{testID(3), testID(2), testID(1), testID(3), testID(2)}
					if !slices.Equal(got, want) {
						t.Errorf("got %v, want %v", got, want)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("a reader waits on it")
				}
			})
		}
	}
}
