package chain

import (
	"os/exec"
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
	}
	for _, tt := range tests {
		got, err := ParseTemplate(tt.in).Render(resolverOf(vars), nil, false)
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
	if _, err := tmpl.Render(resolverOf(nil), nil, false); err == nil || !strings.Contains(err.Error(), "{res.nope} has no value") {
		t.Fatalf("want an unresolved error, got %v", err)
	}
	got, err := tmpl.Render(resolverOf(nil), nil, true)
	if err != nil || got != "a {res.nope} b" {
		t.Fatalf("keep mode: %q %v", got, err)
	}
}

// TestRenderShellNeverRunsValues feeds hostile values through every
// quoting context of a script and checks, with a real sh, that each value
// arrives as data.
func TestRenderShellNeverRunsValues(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	hostile := []string{
		`; echo PWNED`, `$(echo PWNED)`, "`echo PWNED`", `'; echo PWNED; '`, `"; echo PWNED; "`,
		`\"; echo PWNED`, `a b  c`, `*`, ``, `$HOME`, "line1\nline2", `it's`,
	}
	scripts := []string{
		`printf '%s' {v}`,
		`printf '%s' "{v}"`,
		`printf '%s' '{v}'`,
		`printf '%s' "pre-{v}-post"`,
		`printf '%s' x{v}y`,
	}
	for _, script := range scripts {
		for _, v := range hostile {
			out, err := ParseTemplate(script).RenderShell(resolverOf(map[string]string{"v": v}), false)
			if err != nil {
				t.Fatal(err)
			}
			got, err := exec.Command("sh", "-c", out).Output()
			if err != nil {
				t.Errorf("script %s with %q: %v (%s)", script, v, err, out)
				continue
			}
			want := v
			switch {
			case strings.Contains(script, "pre-"):
				want = "pre-" + v + "-post"
			case strings.Contains(script, "x{v}y"):
				want = "x" + v + "y"
			}
			if string(got) != want {
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
