package render

import (
	"errors"
	"testing"
)

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

func TestPictureFormat(t *testing.T) {
	formats := []string{"text", "mermaid", "dot"}
	tests := []struct {
		given    string
		terminal bool
		want     string
		err      string
	}{
		{"", true, "text", ""},
		{"", false, "mermaid", ""},
		{"dot", true, "dot", ""},
		{"text", false, "text", ""},
		{"svg", true, "", `--format "svg": use text, mermaid or dot`},
	}
	for _, tt := range tests {
		got, err := PictureFormat("--format", tt.given, tt.terminal, "text", "mermaid", formats...)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("PictureFormat(%q, %v) = %q, %v; want %q, %q", tt.given, tt.terminal, got, err, tt.want, tt.err)
		}
		var nr interface{ NothingRan() bool }
		if err != nil && (!errors.As(err, &nr) || !nr.NothingRan()) {
			t.Errorf("%v is not a usage error", err)
		}
	}
}

func TestText(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"as it is\nwith <tags> & lines", "as it is\nwith <tags> & lines"},
		{map[string]any{"url": "https://x/?a=1&b=<2>", "n": 2}, `{"n":2,"url":"https://x/?a=1&b=<2>"}`},
		{[]any{1, "two", nil}, `[1,"two",null]`},
		{3.5, "3.5"},
		{true, "true"},
	} {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
