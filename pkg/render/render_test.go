package render

import "testing"

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"one":                  "one",
		"one\r\ntwo":           "one …",
		"\n  padded\nmore\n":   "padded …",
		"exit status 1\n":      "exit status 1",
		"timeout after 5s\n\n": "timeout after 5s",
	} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
