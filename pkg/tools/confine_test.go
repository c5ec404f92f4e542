package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confined makes a working directory with symbolic links in and out of it,
// and the directory outside they point to.
func confined(t *testing.T) (dir, outside string) {
	t.Helper()
	outside = workdir(t, map[string]string{"secret.txt": "SECRET\n", "sub/s.txt": "SECRET\n"})
	dir = workdir(t, map[string]string{"a.txt": "inside\n", "real/r.txt": "real\n"})
	links := map[string]string{
		"out-file":     filepath.Join(outside, "secret.txt"),
		"out-dir":      outside,
		"out-relative": "../" + filepath.Base(outside) + "/secret.txt",
		"in-dir":       filepath.Join(dir, "real"),
		"in-file":      "real/r.txt",
		"dangling-out": filepath.Join(outside, "not-yet"),
		"dangling-in":  "made-by-link.txt",
		"loop1":        "loop2",
		"loop2":        "loop1",
		"real/up":      "..",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
	return dir, outside
}

func TestConfinement(t *testing.T) {
	const outsideErr = "\x00outside"
	tests := []struct {
		name, tool string
		args       map[string]any
		// want is part of the output, of the error message, or outsideErr
		// for an *OutsideError.
		want    string
		wantErr bool
	}{
		{"Read ..", "Read", map[string]any{"file_path": "../x"}, outsideErr, true},
		{"Read .. out and back in", "Read", map[string]any{"file_path": "real/../../x"}, outsideErr, true},
		{"Read absolute outside", "Read", map[string]any{"file_path": "@out/secret.txt"}, outsideErr, true},
		{"Read root", "Read", map[string]any{"file_path": "/"}, outsideErr, true},
		{"Read link to a file outside", "Read", map[string]any{"file_path": "out-file"}, outsideErr, true},
		{"Read relative link outside", "Read", map[string]any{"file_path": "out-relative"}, outsideErr, true},
		{"Read through a link to a dir outside", "Read", map[string]any{"file_path": "out-dir/secret.txt"}, outsideErr, true},
		{"Read missing file through a link outside", "Read", map[string]any{"file_path": "out-dir/none.txt"}, outsideErr, true},
		{"Read through a link inside", "Read", map[string]any{"file_path": "in-dir/r.txt"}, "real", false},
		{"Read link to a file inside", "Read", map[string]any{"file_path": "in-file"}, "real", false},
		{"Read up inside", "Read", map[string]any{"file_path": "real/up/a.txt"}, "inside", false},
		{"Read absolute inside", "Read", map[string]any{"file_path": "@dir/a.txt"}, "inside", false},
		{"Read a link loop", "Read", map[string]any{"file_path": "loop1"}, "loop1", true},
		{"Write ..", "Write", map[string]any{"file_path": "../new.txt", "content": "x"}, outsideErr, true},
		{"Write absolute outside", "Write", map[string]any{"file_path": "@out/new.txt", "content": "x"}, outsideErr, true},
		{"Write link to a file outside", "Write", map[string]any{"file_path": "out-file", "content": "x"}, outsideErr, true},
		{"Write new file through a link outside", "Write", map[string]any{"file_path": "out-dir/new.txt", "content": "x"}, outsideErr, true},
		{"Write new dirs through a link outside", "Write", map[string]any{"file_path": "out-dir/a/b/new.txt", "content": "x"}, outsideErr, true},
		{"Write dangling link outside", "Write", map[string]any{"file_path": "dangling-out", "content": "x"}, outsideErr, true},
		{"Write through a dangling link outside", "Write", map[string]any{"file_path": "dangling-out/x", "content": "x"}, outsideErr, true},
		{"Write through a link inside", "Write", map[string]any{"file_path": "in-dir/new.txt", "content": "x"}, "wrote 1 bytes to in-dir/new.txt", false},
		{"Write link to a file inside", "Write", map[string]any{"file_path": "in-file", "content": "real\n"}, "wrote 5 bytes to in-file", false},
		{"Write dangling link inside", "Write", map[string]any{"file_path": "dangling-in", "content": "made"}, "wrote 4 bytes to dangling-in", false},
		{"Edit link to a file outside", "Edit", map[string]any{"file_path": "out-file", "old_string": "SECRET", "new_string": "x"}, outsideErr, true},
		{"Edit ..", "Edit", map[string]any{"file_path": "../x", "old_string": "a", "new_string": "b"}, outsideErr, true},
		{"Edit through a link inside", "Edit", map[string]any{"file_path": "in-dir/r.txt", "old_string": "real", "new_string": "real"}, "the same", true},
		{"Grep ..", "Grep", map[string]any{"pattern": "SECRET", "path": ".."}, outsideErr, true},
		{"Grep link to a dir outside", "Grep", map[string]any{"pattern": "SECRET", "path": "out-dir"}, outsideErr, true},
		{"Grep link to a file outside", "Grep", map[string]any{"pattern": "SECRET", "path": "out-file"}, outsideErr, true},
		{"Grep does not follow links out", "Grep", map[string]any{"pattern": "SECRET"}, "no matches for SECRET in .", false},
		{"Grep follows links to files inside", "Grep", map[string]any{"pattern": "real"}, "in-file:1:real\nreal/r.txt:1:real", false},
		{"Grep a link to a dir inside", "Grep", map[string]any{"pattern": "real", "path": "in-dir"}, "in-dir/r.txt:1:real", false},
		{"Glob ..", "Glob", map[string]any{"pattern": "../*"}, outsideErr, true},
		{"Glob absolute outside", "Glob", map[string]any{"pattern": "@out/*"}, outsideErr, true},
		{"Glob through a link outside", "Glob", map[string]any{"pattern": "out-dir/*"}, outsideErr, true},
		{"Glob lists files and links inside only", "Glob", map[string]any{"pattern": "**"}, "a.txt\nin-file\nreal/r.txt", false},
		{"Glob through a link inside", "Glob", map[string]any{"pattern": "in-dir/*.txt"}, "in-dir/r.txt", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, outside := confined(t)
			for k, v := range tt.args {
				if s, ok := v.(string); ok {
					s = strings.Replace(s, "@out", outside, 1)
					tt.args[k] = strings.Replace(s, "@dir", dir, 1)
				}
			}
			out, err := call(t, dir, tt.tool, tt.args)
			var oe *OutsideError
			switch {
			case tt.want == outsideErr:
				if !errors.As(err, &oe) {
					t.Fatalf("want an OutsideError, got %v (output %q)", err, out)
				}
				if oe.Dir != dir || !strings.Contains(err.Error(), "is outside the working directory "+dir) {
					t.Errorf("error %q, %+v", err, oe)
				}
			case tt.wantErr:
				if err == nil || !strings.Contains(err.Error(), tt.want) || errors.As(err, &oe) {
					t.Fatalf("got %v (output %q), want an error with %q", err, out, tt.want)
				}
			case err != nil || !strings.Contains(out, tt.want):
				t.Fatalf("got %q, %v; want %q", out, err, tt.want)
			}
			// Nothing outside was changed or created.
			if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "SECRET\n" {
				t.Errorf("secret.txt now holds %q", b)
			}
			entries, _ := os.ReadDir(outside)
			if len(entries) != 2 {
				t.Errorf("outside holds %d entries", len(entries))
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "new.txt")); err == nil {
				t.Error("new.txt written beside the working directory")
			}
		})
	}
}

func TestWriteKeepsLinks(t *testing.T) {
	dir, _ := confined(t)
	if _, err := call(t, dir, "Write", map[string]any{"file_path": "in-file", "content": "new\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "Write", map[string]any{"file_path": "dangling-in", "content": "made"}); err != nil {
		t.Fatal(err)
	}
	for link, want := range map[string]string{"in-file": "new\n", "dangling-in": "made"} {
		if fi, err := os.Lstat(filepath.Join(dir, link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", link, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, link)); string(b) != want {
			t.Errorf("%s holds %q", link, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made-by-link.txt")); string(b) != "made" {
		t.Errorf("the dangling link's target holds %q", b)
	}
}

func TestDirThroughALink(t *testing.T) {
	real := workdir(t, map[string]string{"a.txt": "inside\n"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{"a.txt", filepath.Join(link, "a.txt"), filepath.Join(real, "a.txt")} {
		out, err := Run(context.Background(), Env{Dir: link}, "Read", json.RawMessage(`{"file_path":`+quote(p)+`}`))
		if err != nil || out != "     1\tinside" {
			t.Errorf("%s: %q, %v", p, out, err)
		}
	}
	out, err := Run(context.Background(), Env{Dir: link}, "Write", json.RawMessage(`{"file_path":`+quote(filepath.Join(real, "b.txt"))+`,"content":"b"}`))
	if err != nil || out != "wrote 1 bytes to b.txt" {
		t.Errorf("%q, %v", out, err)
	}
	_, err = Run(context.Background(), Env{Dir: link}, "Read", json.RawMessage(`{"file_path":"../x"}`))
	var oe *OutsideError
	if !errors.As(err, &oe) {
		t.Errorf("../x: %v", err)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestRootHoldsWhenALinkIsSwapped holds that confinement is enforced when
// a file is opened, not only when its path is checked: a directory
// swapped for a link pointing out between the check and the open (as a
// concurrent Bash call could) leads nowhere, for reads and writes alike.
func TestRootHoldsWhenALinkIsSwapped(t *testing.T) {
	outside := workdir(t, map[string]string{"r.txt": "SECRET\n"})
	dir := workdir(t, map[string]string{"real/r.txt": "real\n"})
	w, err := newWorkspace(Env{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	tg, err := w.resolve("real/r.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "real"), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "real")); err != nil {
		t.Skip(err)
	}
	var oe *OutsideError
	if f, err := w.openText(tg); !errors.As(err, &oe) {
		if f != nil {
			f.Close()
		}
		t.Errorf("a read through the swapped link: %v", err)
	}
	if err := w.writeAtomic(tg, []byte("x"), 0o644); !Escapes(err) {
		t.Errorf("a write through the swapped link: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "r.txt")); string(b) != "SECRET\n" {
		t.Errorf("the file outside now holds %q", b)
	}
}

func TestLinkLoopsAreNamed(t *testing.T) {
	dir, _ := confined(t)
	for tool, args := range map[string]map[string]any{
		"Read":  {"file_path": "loop1"},
		"Write": {"file_path": "loop1", "content": "x"},
		"Edit":  {"file_path": "loop2", "old_string": "a", "new_string": "b"},
		"Grep":  {"pattern": "x", "path": "loop1"},
	} {
		_, err := call(t, dir, tool, args)
		if err == nil || !strings.Contains(err.Error(), "too many levels of symbolic links") {
			t.Errorf("%s on a link loop: %v", tool, err)
		}
	}
	if out, err := call(t, dir, "Glob", map[string]any{"pattern": "loop*"}); err != nil || out != "no files match loop*" {
		t.Errorf("Glob lists a link loop: %q %v", out, err)
	}
}
