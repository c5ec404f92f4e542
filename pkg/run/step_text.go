package run

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/chainrun/chainrun/pkg/executor"
)

// tail is the last n lines of s.
func tail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func clip(s string, n int) string {
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
