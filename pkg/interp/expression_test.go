package interp

import (
	"strings"
	"testing"
)

func TestExpressions(t *testing.T) {
	names := map[string]bool{"input": true, "answer": true, "count": true, "res": true, "flag": true, "list": true}
	scope := func(n string) bool { return names[n] }
	env := map[string]any{
		"input":  map[string]any{"env": "prod", "n": "3"},
		"answer": ExprValue("true"),
		"count":  ExprValue("7"),
		"res":    ExprValue(`{"verdict": "ok", "score": 0.9, "tags": ["a", "b"]}`),
		"flag":   ExprValue("yes"),
		"list":   ExprValue(`[1, 2, 3]`),
	}
	tests := []struct {
		src  string
		want bool
	}{
		{`{answer} == "true"`, true},
		{`'{answer}' == "true"`, true},
		{`"{flag}" == "yes"`, true},
		{`{count} > 5`, true},
		{`{count} < 5`, false},
		{`{count} == "7"`, true},
		{`count == 7`, true},
		{`{res.verdict} == "ok"`, true},
		{`res.score > 0.5 && res.verdict != "bad"`, true},
		{`{flag} contains "ye"`, true},
		{`"b" in res.tags`, true},
		{`len(list) == 3`, true},
		{`{input.env} == "prod"`, true},
		{`{input.n} >= 3`, true},
		{`{missing_field|"x"} == "x"`, false}, // compiled below with an error: missing_field is out of scope
	}
	for _, tt := range tests {
		e, err := CompileExpression(tt.src, scope, true)
		if strings.Contains(tt.src, "missing_field") {
			if err == nil {
				t.Errorf("%s: compiled though it names a variable out of scope", tt.src)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		got, err := e.Holds(env)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestExpressionNames(t *testing.T) {
	e, err := CompileExpression(`let x = a + 1; x > b && upper(c) == "C" && all(d, # > 0)`, func(n string) bool { return strings.Contains("abcd", n) }, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.Names, ","); got != "a,b,c,d" {
		t.Errorf("names = %s", got)
	}
	_, err = CompileExpression(`x > 1`, func(string) bool { return false }, true)
	if err == nil || !strings.Contains(err.Error(), "x") {
		t.Errorf("unknown name not reported: %v", err)
	}
}

func TestConditionMustBeBool(t *testing.T) {
	e, err := CompileExpression(`a`, func(n string) bool { return n == "a" }, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Holds(map[string]any{"a": "text"}); err == nil {
		t.Error("a string condition was accepted as true or false")
	}
}

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{"{a}", `{a|"b"}`, "{{.x}}", `\{a}`, "{a.b.c}", `{"json": 1}`, "{", "}", "{{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tmpl := ParseTemplate(s)
		got, err := tmpl.Render(func(Ref) (string, bool, error) { return "", false, nil }, true)
		if err != nil {
			t.Fatal(err)
		}
		// With nothing resolvable and keep on, only \{ escapes change text.
		if !strings.ContainsAny(s, `\|`) && got != s {
			t.Fatalf("keep-mode render changed %q into %q", s, got)
		}
	})
}

func FuzzCompileExpression(f *testing.F) {
	for _, s := range []string{`{a} == "x"`, `a > 3 && b contains "y"`, `"{a}" != 'b'`, `{a|"z"} startsWith "q"`, `let x = 1; x`, `len(a) > 0 ? a : "none"`} {
		f.Add(s)
	}
	inScope := func(n string) bool { return n == "a" || n == "b" || n == "input" }
	f.Fuzz(func(t *testing.T, src string) {
		e, err := CompileExpression(src, inScope, true)
		if err != nil {
			return
		}
		// Whatever compiles evaluates to an answer or an error, never a panic.
		_, _ = e.Holds(map[string]any{"a": "7", "b": map[string]any{"c": 1.0}, "input": map[string]any{}})
	})
}
