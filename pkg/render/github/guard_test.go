package github

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestGuardFencesCommandLinesAcrossWrites: a command line is fenced even
// when it arrives in pieces, indented or after a carriage return; other
// lines pass unchanged.
func TestGuardFencesCommandLinesAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	g := NewGuard(func(string) string { return "true" }, &out)
	for _, piece := range []string{"plain line\n", ":", ":error::a\n", "  ::add-mask::b\nok\n", "x\r::warning::c\n", "::set-output name=d::e"} {
		if _, err := g.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Flush(); err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile(`(?s)::stop-commands::(chainrun-[0-9a-f]{24})\n.*?::(chainrun-[0-9a-f]{24})::\n`)
	rest := fence.ReplaceAllStringFunc(out.String(), func(m string) string {
		sub := fence.FindStringSubmatch(m)
		if sub[1] != sub[2] {
			t.Errorf("a fence closed with another token: %q", m)
		}
		return ""
	})
	for _, line := range strings.FieldsFunc(rest, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("unfenced command %q in\n%s", line, out.String())
		}
	}
	for _, want := range []string{"plain line\n", "::error::a\n", "  ::add-mask::b\n", "ok\n", "::set-output name=d::e\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("%q is not shown in\n%s", want, out.String())
		}
	}
	if NewGuard(func(string) string { return "" }, &out) != nil {
		t.Error("a guard outside GitHub Actions")
	}
}
