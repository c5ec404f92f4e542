package render

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Count is n with its noun, in the singular for one: "1 step",
// "3 steps", "0 steps".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// PrintJSON writes v as indented JSON (two spaces) and a newline: every
// command's -o json output has this one shape. It is written a piece at a
// time: a run's result holds every output.
func PrintJSON(w io.Writer, v any) error {
	if err := jsonstream.Write(w, v, "  "); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Text is a value where a view has a line of text for it (a step output,
// a table cell): a string as it is, nothing for nil, anything else as
// compact JSON (fromJSON and jq read it back), with <, > and & as they
// are.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Duration shows milliseconds under a second and tenths above, so a
// quick step reads 12ms and a slow one 3.4s.
func Duration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return d.Round(100 * time.Millisecond).String()
}

// Millis is Duration of a count of milliseconds, as events and results
// carry them.
func Millis(ms int64) string { return Duration(time.Duration(ms) * time.Millisecond) }

// FirstLine is the first line of a (possibly long) text, marked " …"
// when more follows; views that have one line to spare show this, and the
// whole text stays in the result and the event log.
func FirstLine(s string) string {
	first, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	if more {
		return strings.TrimRight(first, "\r") + " …"
	}
	return first
}

// ResumeCommand is the command that takes a link of a run: with --rerun
// when the step behind it is not idempotent, with --ack for each subject
// its acknowledgment guards wait for, with --arg NAME=<type> for each
// argument it cannot be taken without. Every view that offers a
// next step prints it the same way.
func ResumeCommand(runID string, l response.Link) string {
	return takeCommand(runID, l) + response.ArgFlags(l.Args)
}

// takeCommand is ResumeCommand without the link's arguments.
func takeCommand(runID string, l response.Link) string {
	reruns := l.Reruns
	if l.Rerun {
		reruns = append([]string{l.Transition}, reruns...)
	}
	if len(reruns) > 0 {
		return response.ResumeCommand(runID, l.Transition, reruns...)
	}
	if len(l.Acknowledge) > 0 {
		// the subjects its guards wait for, acknowledged in the same call
		cmd := response.ResumeCommand(runID, "")
		for _, s := range l.Acknowledge {
			cmd += " --ack " + response.ShellWord(s)
		}
		return cmd + " --take " + response.ShellWord(l.Transition)
	}
	return response.ResumeCommand(runID, l.Transition)
}

// FormatError is a format flag's value that names no format the command
// prints: a usage error, nothing was printed.
type FormatError struct {
	Flag, Value string
	Formats     []string
}

func (e *FormatError) Error() string {
	n := len(e.Formats)
	return fmt.Sprintf("%s %q: use %s or %s", e.Flag, e.Value, strings.Join(e.Formats[:n-1], ", "), e.Formats[n-1])
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *FormatError) NothingRan() bool { return true }

// PictureFormat is the format a picture (a graph, a timeline) is printed
// in: the one given, else onTerminal when stdout is a terminal (a person
// reads it) and elsewhere when it is not (a program or a file does). A
// value that is none of formats is a FormatError naming flag.
func PictureFormat(flag, given string, terminal bool, onTerminal, elsewhere string, formats ...string) (string, error) {
	switch {
	case given == "" && terminal:
		return onTerminal, nil
	case given == "":
		return elsewhere, nil
	case slices.Contains(formats, given):
		return given, nil
	}
	return "", &FormatError{Flag: flag, Value: given, Formats: formats}
}
