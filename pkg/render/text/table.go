package text

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// newTable is the tabwriter of the text views' tables: columns two spaces
// apart, and rows that end where their last cell does (tabwriter pads an
// empty last cell with spaces). Every row must end with a newline. Its
// rows reach w in blocks, when Flush is called: a table of 10,000 steps
// is a few writes, not 10,000.
func newTable(w io.Writer) *table {
	rows := &rowTrimmer{w: w}
	return &table{Writer: tabwriter.NewWriter(rows, 0, 4, 2, ' ', 0), rows: rows}
}

// table is a tabwriter whose Flush also writes the rows it buffered.
type table struct {
	*tabwriter.Writer
	rows *rowTrimmer
}

// Flush writes the table.
func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.rows.flush()
}

// rowTrimmer writes each whole line without its trailing spaces, the
// lines gathered in blocks.
type rowTrimmer struct {
	w    io.Writer
	line []byte
	out  []byte
}

// rowBlock is what rowTrimmer gathers before it writes.
const rowBlock = 32 << 10

func (t *rowTrimmer) Write(p []byte) (int, error) {
	t.line = append(t.line, p...)
	for {
		i := bytes.IndexByte(t.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		t.out = append(append(t.out, bytes.TrimRight(t.line[:i], " ")...), '\n')
		t.line = t.line[i+1:]
		if len(t.out) >= rowBlock {
			if err := t.flush(); err != nil {
				return len(p), err
			}
		}
	}
}

// flush writes the rows gathered.
func (t *rowTrimmer) flush() error {
	if len(t.out) == 0 {
		return nil
	}
	_, err := t.w.Write(t.out)
	t.out = t.out[:0]
	return err
}

// resumeLines writes one resume command a line for each link, with its
// title as a comment, the comments aligned.
func resumeLines(w io.Writer, indent, runID string, links []response.Link) {
	width := 0
	for _, l := range links {
		if l.Blocked == "" {
			width = max(width, len(render.ResumeCommand(runID, l)))
		}
	}
	var blocked []response.Link
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
