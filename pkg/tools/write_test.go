package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name string
		args map[string]any
		expect
		// file and want: the file to read afterwards and its content.
		file, want string
	}{
		{"new file", map[string]any{"file_path": "new.txt", "content": "hello\n"}, expect{"wrote 6 bytes to new.txt", false}, "new.txt", "hello\n"},
		{"replace", map[string]any{"file_path": "old.txt", "content": "new"}, expect{"wrote 3 bytes to old.txt", false}, "old.txt", "new"},
		{"parents created", map[string]any{"file_path": "a/b/c.txt", "content": "deep"}, expect{"wrote 4 bytes to a/b/c.txt", false}, "a/b/c.txt", "deep"},
		{"absolute", map[string]any{"file_path": "@/abs.txt", "content": ""}, expect{"wrote 0 bytes to abs.txt", false}, "abs.txt", ""},
		{"dot segments", map[string]any{"file_path": "sub/../dots.txt", "content": "x"}, expect{"wrote 1 bytes to dots.txt", false}, "dots.txt", "x"},
		{"multibyte counted in bytes", map[string]any{"file_path": "u.txt", "content": "é"}, expect{"wrote 2 bytes to u.txt", false}, "u.txt", "é"},
		{"directory", map[string]any{"file_path": "sub", "content": "x"}, expect{"sub is a directory", true}, "", ""},
		{"working directory", map[string]any{"file_path": ".", "content": "x"}, expect{". is a directory", true}, "", ""},
		{"under a file", map[string]any{"file_path": "old.txt/x", "content": "x"}, expect{"old.txt/x", true}, "old.txt", "old"},
		{"empty path", map[string]any{"file_path": "", "content": "x"}, expect{"file_path must not be empty", true}, "", ""},
		{"missing content", map[string]any{"file_path": "x"}, expect{`missing required argument "content"`, true}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workdir(t, map[string]string{"old.txt": "old", "sub/keep": ""})
			if p, ok := tt.args["file_path"].(string); ok && strings.HasPrefix(p, "@") {
				tt.args["file_path"] = dir + p[1:]
			}
			out, err := call(t, dir, "Write", tt.args)
			tt.check(t, out, err)
			if tt.file != "" {
				if b, err := os.ReadFile(filepath.Join(dir, tt.file)); err != nil || string(b) != tt.want {
					t.Errorf("%s holds %q (%v), want %q", tt.file, b, err, tt.want)
				}
			}
			noTemporaryFiles(t, dir)
		})
	}
}

func TestWriteKeepsMode(t *testing.T) {
	dir := workdir(t, nil)
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "Write", map[string]any{"file_path": "run.sh", "content": "#!/bin/sh\necho hi\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "Edit", map[string]any{"file_path": "run.sh", "old_string": "hi", "new_string": "ho"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, dir, "Write", map[string]any{"file_path": "new.txt", "content": "x"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{"run.sh": 0o755, "new.txt": 0o644} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", name, fi.Mode(), err, want)
		}
	}
}

func TestEdit(t *testing.T) {
	const src = "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	tests := []struct {
		name            string
		file, old, repl string
		expect
		want string // the file afterwards
	}{
		{"replace a line", "main.go", `println("hi")`, `println("bye")`, expect{"edited main.go at line 4: replaced 1 line with 1 line", false},
			"package main\n\nfunc main() {\n\tprintln(\"bye\")\n}\n"},
		{"several lines", "main.go", "func main() {\n\tprintln(\"hi\")\n}", "func main() {}", expect{"edited main.go at line 3: replaced 3 lines with 1 line", false},
			"package main\n\nfunc main() {}\n"},
		{"delete", "main.go", "\n\tprintln(\"hi\")", "", expect{"edited main.go at line 3: replaced 2 lines with nothing", false},
			"package main\n\nfunc main() {\n}\n"},
		{"not found", "main.go", "println(\"hello\")", "x", expect{"old_string not found in main.go", true}, src},
		{"whitespace matters", "main.go", "    println(\"hi\")", "x", expect{"not found", true}, src},
		{"twice", "dup.txt", "a", "b", expect{"old_string occurs 3 times in dup.txt; include more surrounding context", true}, "a\na\na\n"},
		{"unique with context", "dup.txt", "a\na\na", "b\na\na", expect{"edited dup.txt at line 1: replaced 3 lines with 3 lines", false}, "b\na\na\n"},
		{"overlapping", "aaa.txt", "aa", "b", expect{"old_string occurs 2 times", true}, "aaa"},
		{"same strings", "main.go", "main", "main", expect{"old_string and new_string are the same", true}, src},
		{"empty old_string", "main.go", "", "x", expect{"old_string must not be empty", true}, src},
		{"missing file", "nope.go", "a", "b", expect{"nope.go does not exist", true}, ""},
		{"directory", "sub", "a", "b", expect{"sub is a directory", true}, ""},
		{"binary", "bin", "a", "b", expect{"bin is a binary file", true}, "a\x00b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workdir(t, map[string]string{"main.go": src, "dup.txt": "a\na\na\n", "aaa.txt": "aaa", "bin": "a\x00b", "sub/x": ""})
			out, err := call(t, dir, "Edit", map[string]any{"file_path": tt.file, "old_string": tt.old, "new_string": tt.repl})
			tt.check(t, out, err)
			if tt.want != "" {
				if b, _ := os.ReadFile(filepath.Join(dir, tt.file)); string(b) != tt.want {
					t.Errorf("file holds %q, want %q", b, tt.want)
				}
			}
			noTemporaryFiles(t, dir)
		})
	}
}

func noTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, ".chainrun-write-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestConcurrentEdits(t *testing.T) {
	// A tool loop runs a turn's calls together: each edit must apply.
	var src strings.Builder
	for i := range 20 {
		fmt.Fprintf(&src, "line %d\n", i)
	}
	dir := workdir(t, map[string]string{"f.txt": src.String()})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			args := map[string]any{"file_path": "f.txt", "old_string": fmt.Sprintf("line %d\n", i), "new_string": fmt.Sprintf("edited %d\n", i)}
			if _, err := call(t, dir, "Edit", args); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
	if strings.Count(string(b), "edited") != 20 {
		t.Fatalf("file holds:\n%s", b)
	}
}
