package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// failCalls is a CallCheck that finds a bad call in every chain whose
// name is in bad, at line 2 of its file, and counts the chains it saw.
func failCalls(seen *[]string, bad ...string) CallCheck {
	return func(c *chain.Chain) error {
		*seen = append(*seen, c.Name)
		for _, b := range bad {
			if c.Name == b {
				return &chain.ValidationError{Diagnostics: []chain.Diagnostic{{File: c.File, Pos: chain.Pos{Line: 2, Col: 3}, Message: "bad call of " + c.Name}}}
			}
		}
		return nil
	}
}

// TestCheckCallsOfEveryChainOfAFile: a file that loaded has each of its
// chains' calls checked, the first bad one answering; a file that did
// not load has its calls checked only when its errors are references
// alone, and then its call errors join the others in line order.
func TestCheckCallsOfEveryChainOfAFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	wf := func(names ...string) string {
		src := "version: '1'\nworkflows:\n"
		for _, n := range names {
			src += "  " + n + ": {initialState: a, states: {a: {terminal: true}}}\n"
		}
		return src
	}
	two := write("two.yaml", wf("first", "second"))
	// {nowhere} is a reference nothing produces, on line 6; its call error
	// (line 2) must come first once they join
	refs := write("refs.yaml", "name: refs\nsteps:\n  - id: s\n    type: cli\n    command: echo\n    args: ['{nowhere}']\n")
	broken := write("broken.yaml", "name: broken\nsteps: [\n")
	cases := []struct {
		name     string
		file     string
		bad      []string
		wantSeen string
		want     string // "" for no error; else every line in order
	}{
		{"every chain checked, none bad", two, nil, "first,second", ""},
		{"the second chain's bad call", two, []string{"second"}, "first,second", "bad call of second"},
		{"the first bad call stops the check", two, []string{"first", "second"}, "first", "bad call of first"},
		{"references alone: calls checked too, in line order", refs, []string{"refs"}, "refs", "2:3: bad call of refs|nowhere"},
		{"references alone, calls fine: the file's errors", refs, nil, "refs", "nowhere"},
		{"a file that does not parse: not checked", broken, []string{"broken"}, "", "broken.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, lerr := chain.LoadFile(tc.file, chain.Options{})
			var seen []string
			err := CheckCalls(tc.file, l, lerr, failCalls(&seen, tc.bad...))
			if got := strings.Join(seen, ","); got != tc.wantSeen {
				t.Errorf("checked %q, want %q", got, tc.wantSeen)
			}
			if tc.want == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			text, at := err.Error(), 0
			for _, part := range strings.Split(tc.want, "|") {
				i := strings.Index(text[at:], part)
				if i < 0 {
					t.Fatalf("no %q (in order) in %s", part, text)
				}
				at += i + len(part)
			}
		})
	}
}

// TestCheckCallsPassesOtherErrorsThrough: an error that is no validation
// error, or a file not known by path, comes back as it is, unchecked.
func TestCheckCallsPassesOtherErrorsThrough(t *testing.T) {
	other := errors.New("cannot read the file")
	invalid := &chain.ValidationError{Diagnostics: []chain.Diagnostic{{Message: "{x} is produced by nothing"}}}
	for _, tc := range []struct {
		file string
		err  error
	}{{"any.yaml", other}, {"", invalid}, {filepath.Join(t.TempDir(), "gone.yaml"), invalid}} {
		var seen []string
		if got := CheckCalls(tc.file, nil, tc.err, failCalls(&seen, "x")); got != tc.err || len(seen) > 0 {
			t.Errorf("%s %v: got %v, checked %v", tc.file, tc.err, got, seen)
		}
	}
	if err := CheckCalls("", nil, nil, failCalls(new([]string))); err != nil {
		t.Errorf("nothing loaded, nothing wrong: %v", err)
	}
}
