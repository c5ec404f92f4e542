package render

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/event"
)

// The SGR colours the views paint with.
const (
	SGRGreen  = "32"
	SGRRed    = "31"
	SGRYellow = "33"
	SGRCyan   = "36"
	SGRDim    = "2"
)

// Paint wraps s in an SGR colour, each line of it, so that the colour is
// reset before every newline and never runs into what follows (a log
// viewer colours line by line).
func Paint(s, sgr string) string {
	if sgr == "" || s == "" {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "\x1b[" + sgr + "m" + l + "\x1b[0m"
		}
	}
	return strings.Join(lines, "\n")
}

// GlyphColor is the colour of a step's mark: green done, red failed,
// yellow skipped or cancelled (neither failed), cyan retried, dim else.
func GlyphColor(glyph string) string {
	switch glyph {
	case "✓":
		return SGRGreen
	case "✗":
		return SGRRed
	case "⊘", "○":
		return SGRYellow
	case "↺", "↻":
		return SGRCyan
	}
	return SGRDim
}

// OutcomeColor is the colour of a run's end: green succeeded, yellow
// paused, red else.
func OutcomeColor(status event.Status) string {
	switch status {
	case event.Succeeded:
		return SGRGreen
	case event.Paused:
		return SGRYellow
	}
	return SGRRed
}
