package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

type answer struct {
	Text string
	N    int
}

func TestPutGet(t *testing.T) {
	s := Open(t.TempDir())
	k := Key([]string{"step", "prompt", "model"})
	var got answer
	if s.Get(k, &got) {
		t.Fatal("hit on an empty store")
	}
	if err := s.Put(k, answer{"hi", 3}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if !s.Get(k, &got) || got != (answer{"hi", 3}) {
		t.Fatalf("got %+v", got)
	}
	if Key([]string{"step", "prompt", "model2"}) == k {
		t.Error("different parts, same key")
	}
}

func TestExpiry(t *testing.T) {
	s := Open(t.TempDir())
	now := time.Now()
	s.now = func() time.Time { return now }
	k := Key("x")
	s.Put(k, answer{"old", 1}, time.Minute)
	st, _ := s.Stats()
	if st.Entries != 1 || st.Expired != 0 {
		t.Fatalf("stats %+v", st)
	}
	now = now.Add(2 * time.Minute)
	if st, _ := s.Stats(); st.Expired != 1 {
		t.Fatalf("stats after expiry %+v", st)
	}
	var got answer
	if s.Get(k, &got) {
		t.Fatal("an expired entry was served")
	}
	if st, _ := s.Stats(); st.Entries != 0 {
		t.Errorf("the expired entry was not removed: %+v", st)
	}
}

func TestCorruptEntryIsAMiss(t *testing.T) {
	s := Open(t.TempDir())
	k := Key("x")
	s.Put(k, answer{"a", 1}, 0)
	os.WriteFile(s.path(k), []byte("{not json"), 0o644)
	var got answer
	if s.Get(k, &got) {
		t.Fatal("a corrupt entry was served")
	}
}

func TestConcurrentWritersNeverCorrupt(t *testing.T) {
	dir := t.TempDir()
	k := Key("shared")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			s := Open(dir)
			for i := range 50 {
				if err := s.Put(k, answer{fmt.Sprint("writer", w), i}, time.Hour); err != nil {
					t.Error(err)
				}
				var got answer
				if s.Get(k, &got) && got.Text == "" {
					t.Error("read a torn entry")
				}
			}
		})
	}
	wg.Wait()
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".*tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestClear(t *testing.T) {
	s := Open(t.TempDir())
	for i := range 5 {
		s.Put(Key(i), answer{"x", i}, 0)
	}
	n, err := s.Clear()
	if err != nil || n != 5 {
		t.Fatalf("cleared %d: %v", n, err)
	}
	if st, _ := s.Stats(); st.Entries != 0 {
		t.Errorf("stats %+v", st)
	}
	if n, err := Open(filepath.Join(t.TempDir(), "missing")).Clear(); err != nil || n != 0 {
		t.Errorf("clear of a missing dir: %d %v", n, err)
	}
}

func TestClearTouchesOnlyEntries(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "settings.json"), []byte("{}"), 0o644)
	os.MkdirAll(filepath.Join(dir, "ab"), 0o755)
	os.WriteFile(filepath.Join(dir, "ab", "notes.json"), []byte("{}"), 0o644)
	s := Open(dir)
	s.Put(Key("x"), answer{"x", 1}, 0)
	if n, err := s.Clear(); err != nil || n != 1 {
		t.Fatalf("cleared %d: %v", n, err)
	}
	for _, f := range []string{"settings.json", "ab/notes.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("clear removed %s", f)
		}
	}
}

// TestEntriesArePrivate: cache entries are 0600 and their directories
// 0700 (an answer may quote whatever the prompt held).
func TestEntriesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	s := Open(dir)
	if err := s.Put("k1", []byte(`"v"`), time.Hour); err != nil {
		t.Fatal(err)
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := d.Info()
		want := os.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s is %o, want %o", p, got, want)
		}
		return nil
	})
}

// TestAnEntryThatIsNoFileIsAMiss: an entry's name taken by a FIFO nobody
// writes, a device or a directory is a miss at once (and Stats counts on),
// never a read that waits for a writer; the next Put replaces a FIFO.
func TestAnEntryThatIsNoFileIsAMiss(t *testing.T) {
	for name, create := range map[string]func(string) error{
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"device":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"directory": func(p string) error { return os.Mkdir(p, 0o700) },
	} {
		t.Run(name, func(t *testing.T) {
			s := Open(t.TempDir())
			k := Key([]string{"y", name})
			os.MkdirAll(filepath.Dir(s.path(k)), 0o700)
			if err := create(s.path(k)); err != nil {
				t.Fatal(err)
			}
			done := make(chan bool, 1)
			go func() {
				var got answer
				hit := s.Get(k, &got)
				s.Stats()
				done <- hit
			}()
			select {
			case hit := <-done:
				if hit {
					t.Fatal("an entry that is no file was served")
				}
			case <-time.After(3 * time.Second):
				t.Fatal("Get still reading after 3s")
			}
			if name == "fifo" {
				s.Put(k, answer{"b", 2}, 0)
				var got answer
				if !s.Get(k, &got) || got.Text != "b" {
					t.Errorf("after Put: %+v", got)
				}
			}
		})
	}
}
