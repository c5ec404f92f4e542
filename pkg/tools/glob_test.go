package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGlob(t *testing.T) {
	dir := workdir(t, map[string]string{
		"main.go":                 "",
		"main_test.go":            "",
		"a.txt":                   "",
		"b.txt":                   "",
		"c.md":                    "",
		".hidden":                 "",
		"src/x.go":                "",
		"src/deep/er/y.go":        "",
		"src/deep/er/y_test.go":   "",
		"src/deep/notes.txt":      "",
		"docs/guide.md":           "",
		".git/config":             "",
		"vendor/.git/HEAD":        "",
		"vendor/lib/z.go":         "",
		"brackets/[x].txt":        "",
		"empty-dir/.keep/nothing": "",
	})
	if err := os.Mkdir(filepath.Join(dir, "onlydirs.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := func(s ...string) string { return strings.Join(s, "\n") }
	tests := []struct {
		pattern string
		expect
	}{
		{"*.go", expect{lines("main.go", "main_test.go"), false}},
		{"**/*.go", expect{lines("main.go", "main_test.go", "src/deep/er/y.go", "src/deep/er/y_test.go", "src/x.go", "vendor/lib/z.go"), false}},
		{"src/**/*.go", expect{lines("src/deep/er/y.go", "src/deep/er/y_test.go", "src/x.go"), false}},
		{"src/**/*_test.go", expect{lines("src/deep/er/y_test.go"), false}},
		{"src/**/er/*", expect{lines("src/deep/er/y.go", "src/deep/er/y_test.go"), false}},
		{"**/**/deep/**", expect{lines("src/deep/er/y.go", "src/deep/er/y_test.go", "src/deep/notes.txt"), false}},
		{"src/*/notes.txt", expect{lines("src/deep/notes.txt"), false}},
		{"src/**", expect{lines("src/deep/er/y.go", "src/deep/er/y_test.go", "src/deep/notes.txt", "src/x.go"), false}},
		{"[ab].txt", expect{lines("a.txt", "b.txt"), false}},
		{"[^a].txt", expect{lines("b.txt"), false}},
		{"[a-c].*", expect{lines("a.txt", "b.txt", "c.md"), false}},
		{"?.md", expect{lines("c.md"), false}},
		{"**/?.go", expect{lines("src/deep/er/y.go", "src/x.go", "vendor/lib/z.go"), false}},
		{`brackets/\[x\].txt`, expect{lines("brackets/[x].txt"), false}},
		{"a.txt", expect{lines("a.txt"), false}},
		{"./src/x.go", expect{lines("src/x.go"), false}},
		{"@/src/*.go", expect{lines("src/x.go"), false}},
		{"*", expect{lines(".hidden", "a.txt", "b.txt", "c.md", "main.go", "main_test.go"), false}},
		{"**/config", expect{"no files match **/config", false}},
		{"**/HEAD", expect{"no files match **/HEAD", false}},
		{"src", expect{"no files match src", false}},
		{"*.rs", expect{"no files match *.rs", false}},
		{"nope/**/*.go", expect{"no files match nope/**/*.go", false}},
		{"{a,b}.txt", expect{lines("a.txt", "b.txt"), false}},
		{"*.{go,md}", expect{lines("c.md", "main.go", "main_test.go"), false}},
		{"{src,docs}/**/*.{go,md}", expect{lines("docs/guide.md", "src/deep/er/y.go", "src/deep/er/y_test.go", "src/x.go"), false}},
		{"{src/deep,vendor}/**/*.go", expect{lines("src/deep/er/y.go", "src/deep/er/y_test.go", "vendor/lib/z.go"), false}},
		{"**/{config,HEAD}", expect{"no files match **/{config,HEAD}", false}},
		{"{../*,a.txt}", expect{lines("a.txt"), false}},
		{"{a,b.txt", expect{"bad pattern {a,b.txt", true}},
		{"onlydirs.go", expect{"no files match onlydirs.go", false}},
		{"[", expect{"bad pattern [", true}},
		{"src/[a-/*.go", expect{"bad pattern", true}},
		{"", expect{"pattern must not be empty", true}},
		{"../*", expect{"is outside the working directory", true}},
		{"src/../../*", expect{"is outside the working directory", true}},
		{"/etc/*", expect{"is outside the working directory", true}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			pattern := tt.pattern
			if strings.HasPrefix(pattern, "@") {
				pattern = dir + pattern[1:]
			}
			out, err := call(t, dir, "Glob", map[string]any{"pattern": pattern})
			tt.check(t, out, err)
		})
	}
}

func TestGlobCap(t *testing.T) {
	files := map[string]string{}
	for i := range 1005 {
		files[fmt.Sprintf("d/f%04d.txt", i)] = ""
	}
	dir := workdir(t, files)
	out, err := call(t, dir, "Glob", map[string]any{"pattern": "**/*.txt"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 1001 || lines[0] != "d/f0000.txt" || lines[999] != "d/f0999.txt" || lines[1000] != "… and 5 more files (narrow the pattern to see them)" {
		t.Fatalf("%d lines: %q", len(lines), lines[len(lines)-2:])
	}
}

func TestMatchSegments(t *testing.T) {
	tests := []struct {
		pat, name string
		file, dir bool // a match as a file; a possible match under it as a directory
	}{
		{"**", "a", true, true},
		{"**", "a/b/c", true, true},
		{"*.go", "a.go", true, false},
		{"*.go", "a", false, false},
		{"**/*.go", "a.go", true, true},
		{"**/*.go", "a/b.go", true, true},
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", true, true},
		{"a/**/b", "c", false, false},
		{"a/*/b", "a", false, true},
		{"a/*/b", "a/x", false, true},
		{"a/*/b", "a/x/y", false, false},
		{"*/**/*/**/*/**/z", "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y", false, true},
	}
	for _, tt := range tests {
		pat, name := strings.Split(tt.pat, "/"), strings.Split(tt.name, "/")
		if got := matchSegments(pat, name, false); got != tt.file {
			t.Errorf("%s as a file %s: %v", tt.pat, tt.name, got)
		}
		if got := matchSegments(pat, name, true); got != tt.dir {
			t.Errorf("%s under the directory %s: %v", tt.pat, tt.name, got)
		}
	}
}

// TestGlobBracesNeverLeaveTheWorkspace: a link that leads out of the
// working directory is never followed by a brace or ** pattern, whether
// it names a directory or a file; a link to a file inside counts.
func TestGlobBracesNeverLeaveTheWorkspace(t *testing.T) {
	outside := workdir(t, map[string]string{"secret.txt": "", "deep/key.pem": ""})
	dir := workdir(t, map[string]string{"in/a.txt": "", "real.txt": ""})
	for link, target := range map[string]string{
		"in/out-dir":   outside,
		"in/out-file":  filepath.Join(outside, "secret.txt"),
		"in/ok-file":   filepath.Join("..", "real.txt"),
		"loop/outside": filepath.Join(outside, "deep"),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, pattern := range []string{"**/*", "{in,loop}/**", "in/{out-dir,out-file,ok-file,a.txt}", "**/*.{txt,pem}", "{in/out-dir,loop/outside}/**"} {
		out, err := call(t, dir, "Glob", map[string]any{"pattern": pattern})
		if err != nil {
			t.Fatalf("%s: %v", pattern, err)
		}
		if strings.Contains(out, "secret") || strings.Contains(out, "key.pem") || strings.Contains(out, "out-") && !strings.HasPrefix(out, "no files match") {
			t.Errorf("%s: a link out of the workspace was followed:\n%s", pattern, out)
		}
	}
	out, _ := call(t, dir, "Glob", map[string]any{"pattern": "in/{ok-file,a.txt}"})
	if out != "in/a.txt\nin/ok-file" {
		t.Errorf("a link to a file inside: %q", out)
	}
}
