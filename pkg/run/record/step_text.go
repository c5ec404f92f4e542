package record

import (
	"strings"
	"unicode/utf8"
)

// A failed command's tails are bounded in lines and in bytes: the end of
// a log is what explains a failure, and a result, an event and a CI log
// must stay small whatever the command printed.
const (
	tailLines = 20
	tailBytes = 4 << 10
)

// FailureTail is the end of a failed command's stream: its last
// tailLines lines, at most tailBytes of them (a longer text is cut at its
// start, on a character's first byte, and marked with …), without the
// trailing line breaks.
func FailureTail(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if i := len(s); strings.Count(s, "\n") >= tailLines {
		for n := 0; n < tailLines; n++ {
			i = strings.LastIndexByte(s[:i], '\n')
		}
		s = s[i+1:]
	}
	if len(s) > tailBytes {
		s = s[len(s)-tailBytes:]
		for s != "" && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		s = "…" + s
	}
	return s
}

// MaskTexts hides secret inputs (mask) in what a step result says in
// words: its error, reason and output tails.
func (sr *StepResult) MaskTexts(mask func(string) string) {
	sr.Error, sr.Reason = mask(sr.Error), mask(sr.Reason)
	sr.Stderr, sr.Stdout = mask(sr.Stderr), mask(sr.Stdout)
}

// Clip cuts s to n bytes, marking the cut with an ellipsis, for a value
// quoted in a message.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
