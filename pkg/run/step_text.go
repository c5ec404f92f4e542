package run

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/executor"
)

// A failed command's tails are bounded in lines and in bytes: the end of
// a log is what explains a failure, and a result, an event and a CI log
// must stay small whatever the command printed.
const (
	tailLines = 20
	tailBytes = 4 << 10
)

// failureTail is the end of a failed command's stream: its last
// tailLines lines, at most tailBytes of them (a longer text is cut at its
// start, on a character's first byte, and marked with …), without the
// trailing line breaks.
func failureTail(s string) string {
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

// maskTexts hides secret inputs (mask) in what a step result says in
// words: its error, reason and output tails.
func (sr *StepResult) maskTexts(mask func(string) string) {
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

// commandError words an executor error for a step result.
func commandError(err error) error {
	var se *executor.StartError
	if errors.As(err, &se) {
		if errors.Is(err, syscall.E2BIG) {
			err = fmt.Errorf("%w: an argument or env: value is over the 128 KiB the system allows one (a run: script gets big values on a pipe; pass a big value that way, or in a file)", err)
		}
		return &permanentError{err}
	}
	return err
}

// FirstLine is the first line of s, for a message or a dry-run line that
// shows one.
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
