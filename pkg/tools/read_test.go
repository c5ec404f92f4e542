package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	dir := workdir(t, map[string]string{
		"a.txt":        "one\ntwo\nthree\n",
		"no-newline":   "one\ntwo",
		"blank-lines":  "\n\n",
		"empty":        "",
		"long-lines":   strings.Repeat("x", 2001) + "\n" + strings.Repeat("é", 2000) + "\nshort",
		"binary":       "text\x00more",
		"late-nul":     strings.Repeat("a", 9000) + "\x00",
		"invalid-utf8": "ok\xff\xfe here\n",
		"crlf":         "a\r\nb\r\n",
		"sub/b.txt":    "in sub\n",
	})
	tests := []struct {
		name string
		args map[string]any
		expect
	}{
		{"whole file", map[string]any{"file_path": "a.txt"}, expect{"     1\tone\n     2\ttwo\n     3\tthree", false}},
		{"absolute path", map[string]any{"file_path": filepath.Join(dir, "a.txt")}, expect{"     1\tone\n     2\ttwo\n     3\tthree", false}},
		{"in a subdirectory", map[string]any{"file_path": "sub/b.txt"}, expect{"     1\tin sub", false}},
		{"dot segments inside", map[string]any{"file_path": "sub/../a.txt", "limit": 1}, expect{"     1\tone\n… (more lines follow; read on with offset 2)", false}},
		{"last line without newline", map[string]any{"file_path": "no-newline"}, expect{"     1\tone\n     2\ttwo", false}},
		{"blank lines", map[string]any{"file_path": "blank-lines"}, expect{"     1\t\n     2\t", false}},
		{"offset", map[string]any{"file_path": "a.txt", "offset": 2}, expect{"     2\ttwo\n     3\tthree", false}},
		{"offset and limit", map[string]any{"file_path": "a.txt", "offset": 2, "limit": 1}, expect{"     2\ttwo\n… (more lines follow; read on with offset 3)", false}},
		{"limit to the end", map[string]any{"file_path": "a.txt", "offset": 2, "limit": 2}, expect{"     2\ttwo\n     3\tthree", false}},
		{"huge limit", map[string]any{"file_path": "a.txt", "offset": 3, "limit": int64(1) << 62}, expect{"     3\tthree", false}},
		{"offset 0 is the start", map[string]any{"file_path": "a.txt", "offset": 0, "limit": 0}, expect{"     1\tone\n     2\ttwo\n     3\tthree", false}},
		{"last line", map[string]any{"file_path": "a.txt", "offset": 3}, expect{"     3\tthree", false}},
		{"offset past the end", map[string]any{"file_path": "a.txt", "offset": 4}, expect{"offset 4 is past the end of a.txt, which has 3 lines", true}},
		{"negative offset", map[string]any{"file_path": "a.txt", "offset": -1}, expect{"offset must be a line number from 1", true}},
		{"negative limit", map[string]any{"file_path": "a.txt", "limit": -5}, expect{"limit must be a number of lines", true}},
		{"empty file", map[string]any{"file_path": "empty"}, expect{"(empty is empty)", false}},
		{"empty file with offset", map[string]any{"file_path": "empty", "offset": 9}, expect{"(empty is empty)", false}},
		{"long lines cut", map[string]any{"file_path": "long-lines"}, expect{
			"     1\t" + strings.Repeat("x", 2000) + readCut + "\n     2\t" + strings.Repeat("é", 2000) + "\n     3\tshort", false}},
		{"invalid UTF-8 replaced", map[string]any{"file_path": "invalid-utf8"}, expect{"     1\tok\uFFFD here", false}},
		{"carriage returns kept", map[string]any{"file_path": "crlf"}, expect{"     1\ta\r\n     2\tb\r", false}},
		{"NUL after the first 8 KiB is text", map[string]any{"file_path": "late-nul", "limit": 1}, expect{"     1\t" + strings.Repeat("a", 2000) + readCut, false}},
		{"missing file", map[string]any{"file_path": "nope.txt"}, expect{"nope.txt does not exist", true}},
		{"missing directory", map[string]any{"file_path": "nope/x.txt"}, expect{"nope/x.txt does not exist", true}},
		{"directory", map[string]any{"file_path": "sub"}, expect{"sub is a directory, not a file", true}},
		{"working directory", map[string]any{"file_path": "."}, expect{". is a directory", true}},
		{"binary", map[string]any{"file_path": "binary"}, expect{"binary is a binary file", true}},
		{"through a file", map[string]any{"file_path": "a.txt/x"}, expect{"a.txt/x", true}},
		{"empty path", map[string]any{"file_path": ""}, expect{"file_path must not be empty", true}},
		{"NUL in path", map[string]any{"file_path": "a\x00b"}, expect{"NUL", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := call(t, dir, "Read", tt.args)
			tt.check(t, out, err)
		})
	}
}

func TestReadLimits(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	dir := workdir(t, map[string]string{"many": b.String()})
	out, err := call(t, dir, "Read", map[string]any{"file_path": "many"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 2001 || lines[1999] != "  2000\t2000" || lines[2000] != "… (more lines follow; read on with offset 2001)" {
		t.Fatalf("%d lines, ending %q", len(lines), lines[len(lines)-2:])
	}
	out, err = call(t, dir, "Read", map[string]any{"file_path": "many", "offset": 2001})
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(out, "\n"); len(lines) != 500 || lines[0] != "  2001\t2001" || lines[499] != "  2500\t2500" {
		t.Fatalf("%d lines: %q … %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestReadEnormousLine(t *testing.T) {
	// One line far longer than the reader's buffer is cut, not loaded.
	dir := workdir(t, map[string]string{"big": strings.Repeat("ab", 1<<20) + "\nnext\n"})
	out, err := call(t, dir, "Read", map[string]any{"file_path": "big"})
	if err != nil {
		t.Fatal(err)
	}
	want := "     1\t" + strings.Repeat("ab", 1000) + readCut + "\n     2\tnext"
	if out != want {
		t.Fatalf("got %d bytes: %.80q…", len(out), out)
	}
}
