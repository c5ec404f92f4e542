package prompt

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/run/ask"
)

// previewMax is how many characters of a call's arguments the question
// shows before it says how many more there are and offers the rest.
const previewMax = 1000

// runMin is the shortest run of one character shown as a count: padding
// (spaces, newlines, escapes) must not push a command out of sight.
const runMin = 8

// allow shows the call (tool, arguments, digest) and reads y, n or v. The
// arguments are shown with every control character, escape sequence,
// bidirectional override and invalid byte escaped, and long runs of one
// character counted, so what the person reads is what would run. When
// they are long, the question shows their start, says how many characters
// follow, and v shows them whole. Anything but yes refuses.
func (t *Terminal) allow(ctx context.Context, r ask.ToolCallRequest) (bool, error) {
	out := t.out
	shown := visible(r.Arguments)
	head, more := cut(shown, previewMax)
	tool := visible(r.Tool)
	fmt.Fprintf(out, "\nStep %s wants to call %s, which it does not list:\n", visible(r.Step), tool)
	choices := "y/N"
	if more > 0 {
		fmt.Fprintf(out, "  %s(%s …\n  … %d more characters not shown: answer v to view the whole call before you decide  [digest %s]\n", tool, head, more, r.Digest)
		choices = "y/N/v"
	} else {
		fmt.Fprintf(out, "  %s(%s)  [digest %s]\n", tool, head, r.Digest)
	}
	for tries := 0; tries < 5; tries++ {
		fmt.Fprintf(out, "Allow this one call? [%s]: ", choices)
		answer, err := t.readLine(ctx)
		if err != nil && answer == "" {
			return false, nil
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return true, nil
		case "v", "view":
			fmt.Fprintf(out, "The whole call:\n  %s(%s)  [digest %s]\n", tool, shown, r.Digest)
			continue
		}
		return false, nil
	}
	return false, nil
}

// cut is s's first n characters and how many more there are.
func cut(s string, n int) (string, int) {
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s, 0
	}
	i, k := 0, 0
	for i < len(s) && k < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i], total - n
}

// visible is s as a person can safely read it on a terminal: control
// characters (C0, DEL, C1 — ESC and CSI included), line and paragraph
// separators, bidirectional and zero-width formatting characters and
// invalid UTF-8 are written as escapes (\n, \x1b, \u202e), and padding —
// more than runMin repeats of one short unit, such as a space, a JSON
// escape "\n" or an escape sequence — as one copy and a count
// ("⟪3000 × ' '⟫"), so that nothing can push a command out of sight.
func visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(escaped(r, s[i:i+size]))
		i += size
	}
	return compact([]rune(b.String()))
}

// maxUnit is the longest unit compact counts: a JSON \u escape, an
// escaped terminal sequence such as \x1b[2K\x1b[1A. A longer unit is
// still no threat: the question says how much is not shown.
const maxUnit = 16

// compact writes each run of more than runMin repeats of a unit of up to
// maxUnit characters as the unit and its count.
func compact(rs []rune) string {
	var b strings.Builder
	for i := 0; i < len(rs); {
		unit, n := 0, 0
		for l := 1; l <= maxUnit && i+l <= len(rs); l++ {
			k := 1
			for i+(k+1)*l <= len(rs) && same(rs[i:i+l], rs[i+k*l:i+(k+1)*l]) {
				k++
			}
			if k > runMin && k*l > n*unit {
				unit, n = l, k
			}
		}
		if unit == 0 {
			b.WriteRune(rs[i])
			i++
			continue
		}
		fmt.Fprintf(&b, "⟪%d × '%s'⟫", n, string(rs[i:i+unit]))
		i += n * unit
	}
	return b.String()
}

func same(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// escaped is one character (raw, its bytes) as visible writes it.
func escaped(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return fmt.Sprintf(`\x%02x`, raw[0])
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r == '\t':
		return `\t`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r >= 0x80 && r <= 0x9f, unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029':
		return fmt.Sprintf(`\u%04x`, r)
	}
	return raw
}
