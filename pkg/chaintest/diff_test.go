package chaintest

import (
	"strings"
	"testing"
)

func TestLineDiff(t *testing.T) {
	show := func(d []DiffLine) string {
		var b []string
		for _, l := range d {
			b = append(b, l.Op+l.Text)
		}
		return strings.Join(b, "|")
	}
	for _, tc := range []struct{ want, got, diff string }{
		{"a", "a", " a"},
		{"a\nb\nc", "a\nB\nc", " a|-b|+B| c"},
		{"a\nb", "a\nb\nc", " a| b|+c"},
		{"x\ny", "", "-x|-y|+"},
		{"", "new", "-|+new"},
		{"one\ntwo\nthree\nfour", "zero\none\nthree\nfour\nfive", "+zero| one|-two| three| four|+five"},
	} {
		if d := show(lineDiff(tc.want, tc.got)); d != tc.diff {
			t.Errorf("%q -> %q: %s, want %s", tc.want, tc.got, d, tc.diff)
		}
	}
}
