package github

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/render/github/githubtest"
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

// hostileLines are lines a step, a model or a server may print, each of
// which the runner would obey if it were not fenced: both command
// syntaxes, in any case, mid-line, after any white space or an ignorable
// character.
var hostileLines = []string{
	"build ok ##[error]forged failure",
	"##[set-output name=deployed]yes",
	"   ##[add-mask]nothing",
	"##[stop-commands]guessed",
	"##[ERROR file=main.go,line=3]upper case",
	"total\t##[Warning]mixed case",
	"\u00a0::error::after a no-break space",
	"\v::notice::after a vertical tab",
	"\u3000::warning::after an ideographic space",
	"\u200b::error::after a zero-width space",
	"\ufeff##[debug]after a byte order mark",
	"#\u200b#[error]split by a zero-width space",
	"progress 10%\r##[group]after a carriage return",
	"::endgroup::",
	":\u200b:error:\u00ad:colons split by ignorable characters",
}

// TestGuardLeavesTheRunnerNothingToObey: whatever a line holds, the
// runner reading the guarded stream obeys nothing but the fences, and
// every line is still shown.
func TestGuardLeavesTheRunnerNothingToObey(t *testing.T) {
	for _, line := range hostileLines {
		var out bytes.Buffer
		g := NewGuard(func(string) string { return "true" }, &out)
		if _, err := g.Write([]byte("before\n" + line + "\nafter\n")); err != nil {
			t.Fatal(err)
		}
		if got := githubtest.Obeys(line); len(got) == 0 {
			t.Errorf("%q: the test's runner obeys nothing in it, so it proves nothing", line)
		}
		for _, c := range githubtest.Obeys(out.String()) {
			if c.Name != "stop-commands" || !strings.HasPrefix(c.Data, "chainrun-") {
				t.Errorf("%q: the runner obeys %s(%q) in\n%q", line, c.Name, c.Data, out.String())
			}
		}
		if !strings.Contains(out.String(), "\n"+line+"\n") {
			t.Errorf("%q is not shown as it is in %q", line, out.String())
		}
	}
}

// TestGuardPassesPlainLines: lines that hold no command reach the
// stream unchanged, with no fence.
func TestGuardPassesPlainLines(t *testing.T) {
	plain := "a :: b\nC# ## [not] a command\nissue #12 [fixed]\n#[error] ## [error]\n"
	var out bytes.Buffer
	g := NewGuard(func(string) string { return "true" }, &out)
	if _, err := g.Write([]byte(plain)); err != nil {
		t.Fatal(err)
	}
	if out.String() != plain {
		t.Errorf("plain lines = %q, want %q", out.String(), plain)
	}
}
