package interp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func resolverOf(vars map[string]string) Resolver {
	return func(r Ref) (string, bool, error) {
		v, ok := vars[r.Dotted()]
		return v, ok, nil
	}
}

func TestTemplateRender(t *testing.T) {
	vars := map[string]string{"a": "A", "input.topic": "go", "res.verdict": "ok", "empty": ""}
	tests := []struct {
		in, want string
	}{
		{"plain text", "plain text"},
		{"{a}", "A"},
		{"x {a} y {a}", "x A y A"},
		{"{input.topic}", "go"},
		{"{res.verdict}", "ok"},
		{"{{.a}} and {{ .res.verdict }}", "A and ok"},
		{`{missing|"dflt"}`, "dflt"},
		{`{empty|'fallback'}`, "fallback"},
		{`{a|"unused"}`, "A"},
		{`JSON {"k": 1} stays`, `JSON {"k": 1} stays`},
		{`{ a }`, `{ a }`},
		{`\{a} is literal`, `{a} is literal`},
		{`{1abc}`, `{1abc}`},
		{`{a`, `{a`},
		{`{{not a ref}}`, `{{not a ref}}`},
		{`v${a} and ${HOME}`, `v${a} and ${HOME}`},
	}
	for _, tt := range tests {
		got, err := ParseTemplate(tt.in).Render(resolverOf(vars), false)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTemplateUnresolved(t *testing.T) {
	tmpl := ParseTemplate("a {res.nope} b")
	if _, err := tmpl.Render(resolverOf(nil), false); err == nil || !strings.Contains(err.Error(), "{res.nope} has no value") {
		t.Fatalf("want an unresolved error, got %v", err)
	}
	got, err := tmpl.Render(resolverOf(nil), true)
	if err != nil || got != "a {res.nope} b" {
		t.Fatalf("keep mode: %q %v", got, err)
	}
}

// TestRenderShellNeverRunsValues feeds hostile values through every
// quoting context of a script — including the ones a quote-counting guess
// gets wrong (comments, heredocs, $( ) inside quotes) — and checks, with a
// real sh, that no value ever runs.
func TestRenderShellNeverRunsValues(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	hostile := []string{
		`; touch PWNED`, `$(touch PWNED)`, "`touch PWNED`", `'; touch PWNED; '`, `"; touch PWNED; "`,
		`\"; touch PWNED`, `a b  c`, `*`, ``, `$HOME`, "line1\nline2", `it's`, `go.mod;touch PWNED`,
	}
	scripts := map[string]string{ // script → what it prints for value V
		`printf '%s' {v}`:                  "V",
		`printf '%s' "{v}"`:                "V",
		`printf '%s' '{v}'`:                "V",
		`printf '%s' "pre-{v}-post"`:       "pre-V-post",
		`printf '%s' x{v}y`:                "xVy",
		"# don't\nprintf '%s' {v}":         "V",
		`printf '%s' "$(printf '%s' {v})"`: "",
		"cat <<EOF\n{v}\nEOF":              "",
		`for f in {v}; do :; done`:         "",
	}
	for script, pattern := range scripts {
		for _, v := range hostile {
			out, env, err := ParseTemplate(script).RenderShell(resolverOf(map[string]string{"v": v}), false)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("sh", "-c", out)
			cmd.Dir = dir
			cmd.Env = env
			got, err := cmd.Output()
			if _, statErr := os.Stat(filepath.Join(dir, "PWNED")); statErr == nil {
				t.Fatalf("value %q ran as code in script %q (rendered %q)", v, script, out)
			}
			if pattern == "" {
				continue
			}
			if err != nil {
				t.Errorf("script %s with %q: %v (%s)", script, v, err, out)
				continue
			}
			if want := strings.ReplaceAll(pattern, "V", v); string(got) != want {
				t.Errorf("script %s with %q printed %q, want %q (script: %s)", script, v, got, want, out)
			}
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"abc": "abc", "": "''", "a b": "'a b'", "it's": `'it'"'"'s'`, "a/b.c-d": "a/b.c-d"} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestSingleBraces: in text written as OCC writes it only {name} is a
// reference; {{…}} (docker's --format, a Go template) is left whole.
func TestSingleBraces(t *testing.T) {
	for _, tc := range []struct {
		text string
		refs []string
		lit  string
	}{
		{"docker ps --format '{{.Names}}\t{{.Status}}' {input.x}", []string{"input"}, "docker ps --format '{{.Names}}\t{{.Status}}' "},
		{"{{ .a }} and {b}", []string{"b"}, "{{ .a }} and "},
		{"unclosed {{ .a", nil, "unclosed {{ .a"},
		{"{a}{{b}}", []string{"a"}, "{{b}}"},
	} {
		tm := ParseSingleBraces(tc.text)
		var names []string
		for _, r := range tm.Refs() {
			names = append(names, r.Name)
		}
		if strings.Join(names, ",") != strings.Join(tc.refs, ",") {
			t.Errorf("%q: refs %v, want %v", tc.text, names, tc.refs)
		}
		var lit strings.Builder
		for _, p := range tm.parts {
			lit.WriteString(p.lit)
		}
		if lit.String() != tc.lit {
			t.Errorf("%q: literal %q, want %q", tc.text, lit.String(), tc.lit)
		}
	}
	if got := ParseTemplate("{{.name}}").Refs(); len(got) != 1 || got[0].Name != "name" {
		t.Errorf("elsewhere {{.name}} stays a reference: %v", got)
	}
}
