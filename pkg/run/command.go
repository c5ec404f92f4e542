package run

import (
	"os"
	"path/filepath"
	"strings"
)

// Command is chainrun as the user ran it, for every command chainrun
// prints to be pasted (resume lines, hints, usage): "./chainrun" when
// that is what they typed, since a plain "chainrun" would not be found.
func Command() string { return CommandName(os.Args[0]) }

// CommandName is the command a hint begins with for a process started
// as argv0: a path to chainrun as typed (quoted for a POSIX shell when
// it needs it), a name on PATH as it is, and plain chainrun for a binary
// that is not chainrun (a test) or that go run built in a temporary
// directory, which is gone once it exits.
func CommandName(argv0 string) string {
	base := filepath.Base(argv0)
	switch {
	case !strings.HasPrefix(base, "chainrun") || strings.HasSuffix(base, ".test"):
		return "chainrun"
	case strings.Contains(argv0, string(filepath.Separator)+"go-build"):
		return "chainrun"
	}
	return shellWord(argv0)
}

// CommandFrom is Command for a line that first changes to dir: a
// relative path the user typed is made absolute, as it would not be
// found from there.
func CommandFrom(dir string) string {
	argv0 := os.Args[0]
	cmd := CommandName(argv0)
	if filepath.Clean(dir) == "." || cmd == "chainrun" || !strings.Contains(argv0, string(filepath.Separator)) || filepath.IsAbs(argv0) {
		return cmd
	}
	if abs, err := filepath.Abs(argv0); err == nil {
		return shellWord(abs)
	}
	return cmd
}
