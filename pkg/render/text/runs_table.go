package text

import (
	"bytes"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/store"
)

// tableBlock is how many runs RunsTable aligns together before its first
// line goes out.
const tableBlock = 100

// RunsTable writes saved runs as Runs does, as they come, so that a
// listing of thousands of runs starts at once: up to tableBlock runs are
// written exactly as Runs writes them; past them, the first block goes
// out and each later run follows in its columns (a wider cell pushes the
// rest of its own line along).
type RunsTable struct {
	w      io.Writer
	rows   []ListedRun
	widths []int
	home   string
	n      int
	err    error
}

// NewRunsTable starts a table of runs on w.
func NewRunsTable(w io.Writer) *RunsTable {
	home, _ := os.UserHomeDir()
	return &RunsTable{w: w, home: home}
}

// Add writes (or holds) one run; false once writing failed.
func (t *RunsTable) Add(r store.Record) bool {
	row := ListedRunOf(r)
	if t.widths != nil {
		t.n++
		t.err = t.line(row)
		return t.err == nil
	}
	t.n++
	t.rows = append(t.rows, row)
	if len(t.rows) == tableBlock {
		// the widths tabwriter gives the block: its widest cell and the
		// padding
		t.widths = make([]int, len(runHeader)-1)
		for i := range t.widths {
			t.widths[i] = utf8.RuneCountInString(runHeader[i]) + 2
		}
		for _, rr := range t.rows {
			for i, c := range t.cells(rr)[:len(t.widths)] {
				t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c)+2)
			}
		}
		t.err = Runs(t.w, t.rows)
		t.rows = nil
	}
	return t.err == nil
}

// Len is how many runs were added.
func (t *RunsTable) Len() int { return t.n }

// Close writes the runs held, as Runs would.
func (t *RunsTable) Close() error {
	if t.err != nil || t.widths != nil {
		return t.err
	}
	return Runs(t.w, t.rows)
}

var runHeader = []string{"RUN ID", "CHAIN", "STATUS", "STARTED", "DURATION", "DIR"}

func (t *RunsTable) cells(r ListedRun) []string {
	return runCells(r, t.home)
}

// line writes one run in the first block's columns.
func (t *RunsTable) line(r ListedRun) error {
	var b bytes.Buffer
	cells := t.cells(r)
	for i, c := range cells[:len(cells)-1] {
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", max(t.widths[i]-utf8.RuneCountInString(c), 2)))
	}
	b.WriteString(cells[len(cells)-1])
	_, err := t.w.Write(append(bytes.TrimRight(b.Bytes(), " "), '\n'))
	return err
}
