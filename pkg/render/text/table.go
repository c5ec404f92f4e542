package text

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run"
)

// newTable is the tabwriter of the text views' tables: columns two spaces
// apart, and rows that end where their last cell does (tabwriter pads an
// empty last cell with spaces). Every row must end with a newline.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(&rowTrimmer{w: w}, 0, 4, 2, ' ', 0)
}

// rowTrimmer writes each whole line without its trailing spaces.
type rowTrimmer struct {
	w    io.Writer
	line []byte
}

func (t *rowTrimmer) Write(p []byte) (int, error) {
	t.line = append(t.line, p...)
	for {
		i := bytes.IndexByte(t.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		row := append(bytes.TrimRight(t.line[:i], " "), '\n')
		if _, err := t.w.Write(row); err != nil {
			return len(p), err
		}
		t.line = t.line[i+1:]
	}
}

// resumeLines writes one resume command a line for each link, with its
// title as a comment, the comments aligned.
func resumeLines(w io.Writer, indent, runID string, links []run.Link) {
	width := 0
	for _, l := range links {
		if l.Blocked == "" {
			width = max(width, len(render.ResumeCommand(runID, l)))
		}
	}
	var blocked []run.Link
	for _, l := range links {
		if l.Blocked != "" {
			blocked = append(blocked, l)
			continue
		}
		fmt.Fprintf(w, "%s%-*s  # %s\n", indent, width, render.ResumeCommand(runID, l), l.Title)
	}
	if len(blocked) > 0 {
		fmt.Fprintf(w, "not possible now:\n")
	}
	for _, l := range blocked {
		fmt.Fprintf(w, "%s%s  # %s\n", indent, l.Transition, l.Blocked)
	}
}
