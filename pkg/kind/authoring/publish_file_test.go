package authoring

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteNewIsAtomicAndIdempotent: a published definition appears
// whole or not at all, a failed write leaves nothing, a file already
// holding the same text is the write done before, and any other file at
// the name (a different text, a symlink) is never written over.
func TestWriteNewIsAtomicAndIdempotent(t *testing.T) {
	const rel = "published/v2/flow.yaml"
	text := []byte("version: \"1\"\nworkflows:\n  flow: {initialState: a, states: {a: {terminal: true}}}\n")
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, base string)
		fail   bool // the write of the text fails half-way (a full disk)
		want   string
		kept   string // what the name holds after, "" for nothing
	}{
		{"a new name", nil, false, "", string(text)},
		{"the same text already there", func(t *testing.T, base string) { put(t, base, rel, string(text)) }, false, "", string(text)},
		{"another text there", func(t *testing.T, base string) { put(t, base, rel, "kind: other\n") }, false, "already exists", "kind: other\n"},
		{"the disk fills mid-way", nil, true, "no space left on device", ""},
		{"a crash left a temporary file", func(t *testing.T, base string) {
			put(t, base, "published/v2/.flow.yaml.0a1b2c3d4e5f"+tempSuffix, "vers")
		}, false, "", string(text)},
		{"a symlink to the same text", func(t *testing.T, base string) {
			put(t, base, "elsewhere.yaml", string(text))
			os.MkdirAll(filepath.Join(base, filepath.Dir(rel)), 0o755)
			if err := os.Symlink(filepath.Join(base, "elsewhere.yaml"), filepath.Join(base, rel)); err != nil {
				t.Fatal(err)
			}
		}, false, "already exists", string(text)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			if tc.before != nil {
				tc.before(t, base)
			}
			if tc.fail {
				old := writeText
				writeText = func(f *os.File, b []byte) (int, error) {
					n, _ := f.Write(b[:len(b)/2])
					return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
				}
				defer func() { writeText = old }()
			}
			err := writeNew(base, rel, text)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			got, rerr := os.ReadFile(filepath.Join(base, rel))
			if tc.kept == "" && !errors.Is(rerr, os.ErrNotExist) || tc.kept != "" && string(got) != tc.kept {
				t.Errorf("the name holds %q (%v), want %q", got, rerr, tc.kept)
			}
			entries, _ := os.ReadDir(filepath.Join(base, filepath.Dir(rel)))
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), tempSuffix) {
					t.Errorf("left %s", e.Name())
				}
			}
		})
	}
}

// put writes text as base/rel, making its directory.
func put(t *testing.T, base, rel, text string) {
	t.Helper()
	p := filepath.Join(base, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
