package store

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestRunFilesArePrivate: every file of a saved run is 0600 and every
// directory 0700, the state directory included, whatever the umask.
func TestRunFilesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := Open(dir)
	c := sessionChain(t)
	ss, err := s.Start(c, map[string]string{"who": "me"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Drive(context.Background(), &scriptedEngine{status: record.Succeeded}, run.Request{Chain: c}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s is %o, want %o", p, got, want)
		}
		seen[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run.json", "result.json", "events.jsonl", "chain.yaml", "lock"} {
		if !seen[name] {
			t.Errorf("no %s was written", name)
		}
	}
}
