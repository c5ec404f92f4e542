package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

// TestARunFileThatIsNoFileIsRefusedAtOnce: a run's run.json, chain.yaml,
// events.jsonl or result.json replaced by a FIFO nobody writes, a
// directory or a device is refused at once by every reader (show,
// resume, the list of runs), naming the file, instead of waiting for a
// writer for good; the list shows that run as corrupt and the others.
func TestARunFileThatIsNoFileIsRefusedAtOnce(t *testing.T) {
	const id = "20260101-000000-000-cccccc"
	const other = "20260101-000000-000-dddddd"
	fifo := func(p string) error { return syscall.Mkfifo(p, 0o600) }
	dir := func(p string) error { return os.Mkdir(p, 0o700) }
	device := func(p string) error { return os.Symlink("/dev/zero", p) }
	for _, file := range []string{"run.json", "chain.yaml", "events.jsonl", "result.json"} {
		for kind, create := range map[string]func(string) error{"fifo": fifo, "directory": dir, "device": device} {
			t.Run(file+" "+kind, func(t *testing.T) {
				s := Open(t.TempDir())
				savedRun(t, s, id, "a", "b")
				savedRun(t, s, other, "a", "b")
				p := filepath.Join(s.runDir(id), file)
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := create(p); err != nil {
					t.Fatal(err)
				}
				for name, read := range readers(s, id) {
					err := returnsSoon(t, read)
					var ce *CorruptError
					if !errors.As(err, &ce) || ce.File != file || !strings.Contains(err.Error(), "not a regular file") {
						t.Errorf("%s: %v, want %s refused as not a regular file", name, err, file)
					}
				}
				var recs []Record
				if err := returnsSoon(t, func() (err error) { recs, err = s.List(); return err }); err != nil {
					t.Fatal(err)
				}
				status := map[string]event.Status{}
				for _, r := range recs {
					status[r.RunID] = r.Status
				}
				if len(status) != 2 || (file == "run.json") != (status[id] == event.Corrupt) || status[other] == event.Corrupt {
					t.Errorf("list: %v", status)
				}
			})
		}
	}
}

// returnsSoon runs read and fails the test when it has not returned in a
// few seconds (it would wait for a FIFO's writer for good).
func returnsSoon(t *testing.T, read func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Second):
		t.Fatal("still reading after 3s")
		return nil
	}
}

// readers are the ways a saved run is read: show (whole or as a summary)
// and resume.
func readers(s *Store, id string) map[string]func() error {
	return map[string]func() error{
		"load":    func() error { _, err := s.Load(id); return err },
		"summary": func() error { _, err := s.Summary(id); return err },
		"resume": func() error {
			r, _, err := s.Resume(id)
			if r != nil {
				r.Close()
			}
			return err
		},
	}
}
