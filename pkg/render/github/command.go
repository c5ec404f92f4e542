package github

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode"
)

// GitHub Actions reads "workflow commands" from the lines a job step
// prints: ::group::, ::error file=...::, ::stop-commands:: and so on. This
// file writes them, escaped as the runner unescapes them, so a message
// holding a newline or a property holding a comma cannot cut a command
// short or forge another one.

// ghProp is one property of a workflow command (file=..., line=...).
type ghProp struct{ key, value string }

// ghCommand formats one workflow command line (without its newline):
// ::name key=value,key=value::message. Empty property values are left
// out, so callers can pass a line or file they may not know.
func ghCommand(name string, props []ghProp, message string) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(name)
	sep := " "
	for _, p := range props {
		if p.value == "" {
			continue
		}
		b.WriteString(sep)
		b.WriteString(p.key)
		b.WriteByte('=')
		b.WriteString(ghEscapeProperty(p.value))
		sep = ","
	}
	b.WriteString("::")
	b.WriteString(ghEscapeData(message))
	return b.String()
}

var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghEscapeData escapes a command's message as the runner expects: %, CR
// and LF, so a multi-line message stays one command.
func ghEscapeData(s string) string { return ghDataEscaper.Replace(s) }

// ghEscapeProperty escapes a property value: also : and , which would
// otherwise end the value (a title holding "a, b" or "x: y").
func ghEscapeProperty(s string) string { return ghPropertyEscaper.Replace(s) }

// ghCommandLike reports whether the runner could read any line as a
// workflow command: a step's own output must not open groups, mask values,
// set outputs or stop command processing. The runner knows two syntaxes:
// "::name::" at a line's start once every leading white space is trimmed
// (any Unicode space, not only blanks), and the older "##[name]" ANYWHERE
// in a line. It splits lines at a carriage return too, and matches with
// culture-aware comparisons that skip ignorable characters (zero-width
// spaces, a byte order mark), so those are dropped before looking. A line
// is judged by its shape, whatever the name: fencing a harmless line costs
// two lines, missing one lets output give orders.
func ghCommandLike(lines []string) bool {
	for _, l := range lines {
		if !strings.ContainsAny(l, ":#") {
			continue // the common case, with nothing to drop
		}
		l = strings.Map(dropIgnorable, l)
		if strings.Contains(l, "##[") {
			return true
		}
		for _, piece := range strings.Split(l, "\r") {
			if strings.HasPrefix(strings.TrimLeftFunc(piece, unicode.IsSpace), "::") {
				return true
			}
		}
	}
	return false
}

// dropIgnorable is strings.Map's function that removes what a
// culture-aware comparison skips: every character neither printable nor
// a space (format characters, controls, unassigned code points).
func dropIgnorable(r rune) rune {
	if unicode.IsGraphic(r) || unicode.IsSpace(r) {
		return r
	}
	return -1
}

// ghVerbatim writes lines that are to be shown, never obeyed: when one of
// them looks like a workflow command, command processing is stopped
// around them with an unguessable token (::stop-commands::TOKEN ...
// ::TOKEN::), as GitHub documents for echoing untrusted output.
func ghVerbatim(b *strings.Builder, lines []string) {
	// an element may hold several lines (an error quoting a step's stderr)
	if len(lines) > 0 {
		lines = strings.Split(strings.Join(lines, "\n"), "\n")
	}
	token := ""
	if ghCommandLike(lines) {
		token = ghStopToken()
		b.WriteString("::stop-commands::" + token + "\n")
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if token != "" {
		b.WriteString("::" + token + "::\n")
	}
}

// ghStopToken is a fresh random token for ::stop-commands::, which a
// step's output cannot know in advance.
func ghStopToken() string {
	var buf [12]byte
	_, _ = rand.Read(buf[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "chainrun-" + hex.EncodeToString(buf[:])
}
