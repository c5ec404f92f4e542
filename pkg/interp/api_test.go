package interp

import (
	"errors"
	"strings"
	"testing"
)

// TestReplaceRefsTurnsChosenReferencesIntoText: a front-end that reads a
// reference as text (OCC's {name} that names nothing) gets that text in
// every rendering, the other references stay references, and a change
// to a reference (its OCC mark) is kept.
func TestReplaceRefsTurnsChosenReferencesIntoText(t *testing.T) {
	for _, tc := range []struct {
		text, asText, want string
		refs               []string
	}{
		{"{a} and {b}", "b", "A and {b}", []string{"a"}},
		{"{x|fallback} {x}", "x", "{x|fallback} {x}", nil},
		{`{{.a}} \{b} {c.d}`, "c", "A {b} {c.d}", []string{"a"}},
	} {
		tm := ParseSyntax(tc.text, Syntax{Double: true, Loose: true})
		tm.ReplaceRefs(func(r *Ref) (string, bool) {
			r.Loose = true
			return r.Raw, r.Name == tc.asText
		})
		var names []string
		for _, r := range tm.Refs() {
			if !r.Loose {
				t.Errorf("%q: %s lost its mark", tc.text, r.Raw)
			}
			names = append(names, r.Name)
		}
		if strings.Join(names, ",") != strings.Join(tc.refs, ",") {
			t.Errorf("%q: refs %v, want %v", tc.text, names, tc.refs)
		}
		got, err := tm.Render(resolverOf(map[string]string{"a": "A", "b": "B", "x": "X", "c.d": "CD"}), false)
		if err != nil || got != tc.want {
			t.Errorf("%q: rendered %q (%v), want %q", tc.text, got, err, tc.want)
		}
	}
}

// TestSyntaxOCCReadsUnquotedFallbacks: only a template read with
// Syntax.Loose takes {x|two words} as a reference with a fallback.
func TestSyntaxOCCReadsUnquotedFallbacks(t *testing.T) {
	for _, syn := range []Syntax{{}, {Double: true}, {Loose: true}, {Double: true, Loose: true}} {
		refs := ParseSyntax("{x|two words} {{.y}}", syn).Refs()
		var names []string
		for _, r := range refs {
			names = append(names, r.Name)
		}
		want := map[Syntax]string{{}: "", {Double: true}: "y", {Loose: true}: "x", {Double: true, Loose: true}: "x,y"}[syn]
		if got := strings.Join(names, ","); got != want {
			t.Errorf("%+v: refs %q, want %q", syn, got, want)
		}
	}
}

// TestFallbackExpressionJudgesByItsOwnRule: a condition handed a
// front-end's rule holds when that rule says so, with that rule's error,
// and keeps the source and names it was given for messages.
func TestFallbackExpressionJudgesByItsOwnRule(t *testing.T) {
	broken := errors.New("cannot judge")
	e := FallbackExpression("{n} > 2", []string{"n"}, func(env map[string]any) (bool, error) {
		switch env["n"] {
		case nil:
			return false, broken
		case "3":
			return true, nil
		}
		return false, nil
	})
	for _, tc := range []struct {
		n    any
		want bool
		err  error
	}{{"3", true, nil}, {"1", false, nil}, {nil, false, broken}} {
		got, err := e.Holds(map[string]any{"n": tc.n})
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("n=%v: %v, %v; want %v, %v", tc.n, got, err, tc.want, tc.err)
		}
	}
	if e.Source != "{n} > 2" || strings.Join(e.Names, ",") != "n" {
		t.Errorf("source %q, names %v", e.Source, e.Names)
	}
}

// TestParsePathNamesWhatItRefuses: a JSONPath's root is one a
// transition can read, and a slip is answered with the root meant.
func TestParsePathNamesWhatItRefuses(t *testing.T) {
	for raw, want := range map[string]string{
		"$.context.x":        "",
		"$.workflow.input.a": "",
		"$.contxt.x":         `"$.contxt.x" starts nowhere a transition can read: use $.output, $.arguments, $.context, $.workflow.input or $.input (did you mean context?)`,
		"$.elsewhere":        `"$.elsewhere" starts nowhere a transition can read: use $.output, $.arguments, $.context, $.workflow.input or $.input`,
		"$.context[":         `"$.context[" is not a valid JSONPath: `,
	} {
		_, err := ParsePath(raw)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", raw, err)
		case want != "" && err == nil:
			t.Errorf("%s: accepted, want %q", raw, want)
		case want != "" && err.Error() != want && !(strings.HasSuffix(want, ": ") && strings.HasPrefix(err.Error(), want)):
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}
