package response

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
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

// ResumeCommand is the command line that resumes runID, taking take when
// it is set and confirming the steps in rerun, each argument quoted for a
// POSIX shell when it needs it, so that a printed command works pasted.
func ResumeCommand(runID, take string, rerun ...string) string {
	args := []string{Command(), "resume", shellWord(runID)}
	if take != "" {
		args = append(args, "--take", shellWord(take))
	}
	for _, r := range rerun {
		args = append(args, "--rerun", shellWord(r))
	}
	return strings.Join(args, " ")
}

// ArgFlags are the --arg flags that give the arguments a link needs, each
// with its placeholder (" --arg 'ticket=<string>'"), quoted so that one
// pasted as printed runs nothing with a placeholder for a value (the
// placeholder itself is refused): only the placeholder is to be replaced.
func ArgFlags(args []chain.NeededArg) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" --arg " + shellWord(a.Name+"="+a.Placeholder()))
	}
	return b.String()
}

// ShellWord is s as one word of a POSIX shell command line: as it is
// when it holds no character a shell reads, else single-quoted; every
// command chainrun prints for pasting quotes its words with it.
func ShellWord(s string) string { return shellWord(s) }

func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" && s[0] != '-' {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
