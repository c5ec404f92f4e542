package githubtest

import (
	"strings"
	"unicode"
)

// runnerCommands are the commands the runner registers.
var runnerCommands = map[string]bool{
	"add-mask": true, "add-path": true, "add-matcher": true, "debug": true, "echo": true,
	"endgroup": true, "error": true, "group": true, "notice": true, "remove-matcher": true,
	"save-state": true, "set-env": true, "set-output": true, "stop-commands": true, "warning": true,
	"internal-set-repo-path": true,
}

// Command is one command the runner would act on: its name, lower case,
// its data (the text after the command) and the whole line it was read in.
type Command struct{ Name, Data, Line string }

// Obeys reads log as the runner does and returns the commands it acts on,
// in order; the fences themselves (stop-commands) are among them.
func Obeys(log string) []Command {
	var out []Command
	stopToken := ""
	for _, line := range strings.FieldsFunc(log, func(r rune) bool { return r == '\n' || r == '\r' }) {
		name, data, ok := runnerParse(line, stopToken)
		if !ok {
			continue
		}
		if stopToken != "" {
			if strings.EqualFold(name, stopToken) {
				stopToken = ""
			}
			continue
		}
		if strings.EqualFold(name, "stop-commands") {
			stopToken = data
		}
		out = append(out, Command{strings.ToLower(name), data, line})
	}
	return out
}

// runnerParse reads one line: the new syntax first, then the old.
func runnerParse(line, stopToken string) (name, data string, ok bool) {
	line = strings.Map(func(r rune) rune {
		if unicode.IsGraphic(r) || unicode.IsSpace(r) {
			return r
		}
		return -1 // ignorable for a culture-aware comparison
	}, line)
	known := func(n string) bool {
		return runnerCommands[strings.ToLower(n)] || (stopToken != "" && strings.EqualFold(n, stopToken))
	}
	if v2 := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(v2, "::") {
		if end := strings.Index(v2[2:], "::"); end >= 0 {
			info := v2[2 : 2+end]
			n, _, _ := strings.Cut(info, " ")
			if known(n) {
				return n, v2[2+end+2:], true
			}
		}
	}
	if i := strings.Index(line, "##["); i >= 0 {
		if j := strings.IndexByte(line[i:], ']'); j >= 0 {
			n, _, _ := strings.Cut(line[i+3:i+j], " ")
			if known(n) {
				return n, line[i+j+1:], true
			}
		}
	}
	return "", "", false
}
