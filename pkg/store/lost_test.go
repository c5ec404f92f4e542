package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
)

// TestLostEvidenceIsRefused: a run whose event log is gone or empty while
// run.json or result.json says an attempt ended, one whose result.json is
// cut short, and one whose log holds a line of a newer event version
// are refused by every reader (show and resume), naming the file; a
// run killed before it wrote anything loads.
func TestLostEvidenceIsRefused(t *testing.T) {
	const id = "20260101-000000-000-bbbbbb"
	cut := func(name string, keep func(n int) int) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, name)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, b[:keep(len(b))], 0o644)
		}
	}
	for _, tc := range []struct {
		name, file, says string
		damage           func(t *testing.T, dir string)
	}{
		{"log emptied", "events.jsonl", "yet run.json says it is failed", cut("events.jsonl", func(int) int { return 0 })},
		{"log removed", "events.jsonl", "empty or missing", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "events.jsonl")) }},
		{"log lost while a resume ran", "events.jsonl", "result.json holds an attempt's result", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "events.jsonl"))
			setStatus(t, dir, "running")
		}},
		{"result cut in half", "result.json", "result.json cannot be read", cut("result.json", func(n int) int { return n / 2 })},
		{"result cut to one byte", "result.json", "result.json cannot be read", cut("result.json", func(int) int { return 1 })},
		{"a newer event version", "events.jsonl", "event version 9 is newer", func(t *testing.T, dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, "events.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"v":9,"type":"step.saved","run_id":"` + id + `","record":{"result":{"id":"x","status":"failed"}}}` + "\n")
			f.Close()
		}},
		{"a newer version on a torn last line", "events.jsonl", "event version 12 is newer", func(t *testing.T, dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, "events.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"v":12,"type":"run.started"}`)
			f.Close()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			savedRun(t, s, id, "a", "b")
			tc.damage(t, s.runDir(id))
			for name, read := range readers(s, id) {
				err := read()
				var ce *CorruptError
				if !errors.As(err, &ce) || ce.File != tc.file || !strings.Contains(err.Error(), tc.says) {
					t.Errorf("%s: %v, want %s refused saying %q", name, err, tc.file, tc.says)
				}
			}
		})
	}
	t.Run("killed before it wrote anything", func(t *testing.T) {
		s := Open(t.TempDir())
		r, err := s.Create(Record{RunID: id, Name: "c", Status: event.Running}, []byte("name: c\n"))
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		os.Remove(filepath.Join(s.runDir(id), "events.jsonl"))
		if _, err := s.Load(id); err != nil {
			t.Errorf("a run with no attempt ended yet: %v", err)
		}
	})
}

// setStatus rewrites the status run.json holds.
func setStatus(t *testing.T, dir, status string) {
	t.Helper()
	p := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, `"status": "`)
	if i < 0 {
		t.Fatalf("no status in %s", s)
	}
	j := strings.Index(s[i+11:], `"`)
	os.WriteFile(p, []byte(s[:i+11]+status+s[i+11+j:]), 0o644)
}
