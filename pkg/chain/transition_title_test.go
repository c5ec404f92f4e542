package chain

import (
	"strings"
	"testing"
)

// TestATitleThatLooksLikeATemplateIsNamed: a transition's title is shown
// as written everywhere a link is (the pause's hints, the retry line, MCP,
// the deciding model's list), so a reference or placeholder in it is a
// warning naming it and where to put what varies; a title with no
// template, or braces that are no reference, is not.
func TestATitleThatLooksLikeATemplateIsNamed(t *testing.T) {
	cases := []struct{ title, want string }{
		{`"Ship for {input.who}"`, `title: {input.who} is shown as written`},
		{`"At {context.lvl} now"`, `title: {context.lvl} is shown as written`},
		{`"Deploy {{ $.context.region }}"`, `title: {{ $.context.region }} is shown as written`},
		{`"Ship it"`, ""},
		{`"Send {} or { }"`, ""},
	}
	for _, c := range cases {
		src := wfHead + "      a:\n        transitions:\n          go: {target: b, actor: human, title: " + c.title + "}\n      b: {terminal: true}\n"
		l, err := Parse("c.yaml", []byte(src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.title, err)
		}
		var got []string
		for _, w := range l.Warnings {
			if strings.Contains(w.String(), "title") {
				got = append(got, w.String())
			}
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: %v", c.title, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want) || !strings.Contains(got[0], "c.yaml:8:")):
			t.Errorf("%s: want %q, got %v", c.title, c.want, got)
		}
	}
}
