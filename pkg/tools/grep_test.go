package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestGrep(t *testing.T) {
	dir := workdir(t, map[string]string{
		"a.txt":        "alpha\nbeta\nAlphabet\n",
		"b.go":         "package b\n\nfunc Alpha() {}\n",
		"sub/c.txt":    "gamma\nalpha beta\n",
		"sub/d/e.txt":  "no match\nalpha",
		"bin.dat":      "alpha\x00alpha",
		".git/config":  "alpha\n",
		"long.txt":     strings.Repeat("x", 600) + "alpha\n",
		"invalid.txt":  "alpha\xff\n",
		"unicode.txt":  "ünïcödé alpha\n",
		"empty.txt":    "",
		"nested/.git":  "alpha (a gitfile)\n",
		"dollar.txt":   "cost: $5\n",
		"windows.txt":  "alpha\r\n",
		"sub/d/f.json": `{"alpha": 1}`,
	})
	lines := func(s ...string) string { return strings.Join(s, "\n") }
	tests := []struct {
		name string
		args map[string]any
		expect
	}{
		{"whole directory", map[string]any{"pattern": "alpha"}, expect{lines(
			"a.txt:1:alpha",
			"invalid.txt:1:alpha\uFFFD",
			"long.txt:1:"+strings.Repeat("x", 500)+grepCut,
			"sub/c.txt:2:alpha beta",
			"sub/d/e.txt:2:alpha",
			`sub/d/f.json:1:{"alpha": 1}`,
			"unicode.txt:1:ünïcödé alpha",
			"windows.txt:1:alpha\r",
		), false}},
		{"ignore case", map[string]any{"pattern": "(?i)^alpha", "path": "a.txt"}, expect{lines("a.txt:1:alpha", "a.txt:3:Alphabet"), false}},
		{"one file", map[string]any{"pattern": "beta", "path": "sub/c.txt"}, expect{"sub/c.txt:2:alpha beta", false}},
		{"absolute file", map[string]any{"pattern": "Alpha", "path": "@/b.go"}, expect{"b.go:3:func Alpha() {}", false}},
		{"subdirectory", map[string]any{"pattern": "a", "path": "sub/d"}, expect{lines("sub/d/e.txt:1:no match", "sub/d/e.txt:2:alpha", `sub/d/f.json:1:{"alpha": 1}`), false}},
		{"working directory", map[string]any{"pattern": `\$5`, "path": "."}, expect{"dollar.txt:1:cost: $5", false}},
		{"empty lines match", map[string]any{"pattern": "^$", "path": "b.go"}, expect{"b.go:2:", false}},
		{"no matches", map[string]any{"pattern": "zeta"}, expect{"no matches for zeta in .", false}},
		{"no matches in a file", map[string]any{"pattern": "zeta", "path": "a.txt"}, expect{"no matches for zeta in a.txt", false}},
		{"empty file", map[string]any{"pattern": ".", "path": "empty.txt"}, expect{"no matches for . in empty.txt", false}},
		{"invalid regexp", map[string]any{"pattern": "a(b"}, expect{"invalid regular expression", true}},
		{"no backreferences", map[string]any{"pattern": `(a)\1`}, expect{"invalid regular expression", true}},
		{"empty pattern", map[string]any{"pattern": ""}, expect{"pattern must not be empty", true}},
		{"missing path", map[string]any{"pattern": "a", "path": "nope"}, expect{"nope does not exist", true}},
		{"binary file named", map[string]any{"pattern": "alpha", "path": "bin.dat"}, expect{"bin.dat is a binary file", true}},
		{"path outside", map[string]any{"pattern": "a", "path": ".."}, expect{"is outside the working directory", true}},
		{"absolute outside", map[string]any{"pattern": "root", "path": "/etc/passwd"}, expect{"is outside the working directory", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p, ok := tt.args["path"].(string); ok && strings.HasPrefix(p, "@") {
				tt.args["path"] = dir + p[1:]
			}
			out, err := call(t, dir, "Grep", tt.args)
			tt.check(t, out, err)
		})
	}
}

func TestGrepCap(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 520; i++ {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	dir := workdir(t, map[string]string{"m.txt": b.String()})
	out, err := call(t, dir, "Grep", map[string]any{"pattern": "match"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 501 || lines[499] != "m.txt:500:match 500" || lines[500] != "… and 20 more matching lines (narrow the pattern or the path to see them)" {
		t.Fatalf("%d lines: %q", len(lines), lines[len(lines)-2:])
	}
}
