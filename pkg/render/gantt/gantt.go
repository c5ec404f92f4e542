package gantt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/graph"
)

// Span is one step's time in a run, read back from its event log.
type Span struct {
	Step       string
	Start, End time.Time
	Status     event.Status
}

// Timeline is the last attempt of a run: when it started, and its steps'
// spans in the order they started.
type Timeline struct {
	Start time.Time
	Spans []Span
}

// logType is the member of a step.log line, which a line names before
// any text it carries (its members go in one order: v, time, run_id,
// type); a JSON string never holds it unescaped.
var logType = []byte(`,"type":"step.log"`)

// logLine reports whether line is a step.log event, looking at its first
// bytes only.
func logLine(line []byte) bool {
	return bytes.Contains(line[:min(len(line), 256)], logType)
}

// Read collects step start and end times of the last attempt of a run
// from its events.jsonl (an attempt begins at run.started), a line at a
// time: a line's record (a step's whole output) is read past, not kept.
func Read(path string) (Timeline, error) {
	f, err := os.Open(path)
	if err != nil {
		return Timeline{}, err
	}
	defer f.Close()
	var start time.Time
	byStep := map[string]*Span{}
	var order []string
	err = jsonstream.Lines(f, func(line []byte) error {
		if logLine(line) {
			return nil // a line of output an older chainrun logged: a million of them for seq 1000000 -v
		}
		var e struct {
			Type   event.Type   `json:"type"`
			RunID  string       `json:"run_id"`
			Step   string       `json:"step"`
			Time   time.Time    `json:"time"`
			Status event.Status `json:"status"`
		}
		if json.Unmarshal(line, &e) != nil || strings.Contains(e.RunID, "/") {
			return nil // steps of called chains stay inside their chain step
		}
		switch e.Type {
		case event.RunStarted: // a new attempt of the run
			start, byStep, order = e.Time, map[string]*Span{}, nil
		case event.StepStarted:
			byStep[e.Step] = &Span{Step: e.Step, Start: e.Time}
			order = append(order, e.Step)
		case event.StepFinished:
			if sp := byStep[e.Step]; sp != nil {
				sp.End, sp.Status = e.Time, e.Status
			}
		}
		return nil
	})
	tl := Timeline{Start: start}
	for _, id := range order {
		if sp := byStep[id]; !sp.End.IsZero() {
			tl.Spans = append(tl.Spans, *sp)
		}
	}
	sort.SliceStable(tl.Spans, func(i, j int) bool { return tl.Spans[i].Start.Before(tl.Spans[j].Start) })
	if tl.Start.IsZero() && len(tl.Spans) > 0 {
		tl.Start = tl.Spans[0].Start
	}
	return tl, err
}

// end is when the last step ended.
func (tl Timeline) end() time.Time {
	end := tl.Start
	for _, sp := range tl.Spans {
		if sp.End.After(end) {
			end = sp.End
		}
	}
	return end
}

// Mermaid prints a Mermaid gantt chart of a run: one bar per step from
// its start to its end, so parallelism and the critical path show. Times
// are written from the run's start, as a clock from 00:00:00.000 (under a
// day), which reads in the source and on the chart's axis alike.
func Mermaid(w io.Writer, title string, tl Timeline) error {
	var b strings.Builder
	long := tl.end().Sub(tl.Start) >= 24*time.Hour
	// bars are whole milliseconds, and so is the clock they start from:
	// a bar never starts before it
	origin := tl.Start.Truncate(time.Millisecond)
	at := func(t time.Time) string {
		if long {
			return t.UTC().Format("2006-01-02 15:04:05.000")
		}
		return time.Time{}.Add(t.Sub(origin)).Format("15:04:05.000")
	}
	switch d := tl.end().Sub(tl.Start); {
	case long:
		fmt.Fprintf(&b, "gantt\n  title %s\n  dateFormat YYYY-MM-DD HH:mm:ss.SSS\n  axisFormat %%m-%%d %%H:%%M\n", title)
	case d >= time.Hour:
		fmt.Fprintf(&b, "gantt\n  title %s\n  dateFormat HH:mm:ss.SSS\n  axisFormat %%H:%%M:%%S\n", title)
	default:
		fmt.Fprintf(&b, "gantt\n  title %s\n  dateFormat HH:mm:ss.SSS\n  axisFormat %%M:%%S.%%L\n", title)
	}
	for _, sp := range tl.Spans {
		tag := ""
		switch sp.Status {
		case event.Failed:
			tag = "crit, "
		case event.Cancelled:
			// stopped by another step's failure: marked, never as one
			tag = "active, "
		case event.Skipped, event.Cached:
			tag = "done, "
		}
		start, end := sp.Start.Truncate(time.Millisecond), sp.End.Truncate(time.Millisecond)
		if !end.After(start) {
			end = start.Add(time.Millisecond) // a bar must have a length
		}
		fmt.Fprintf(&b, "  %s :%s%s, %s, %s\n", strings.ReplaceAll(sp.Step, ":", "_"), tag, graph.MermaidID(sp.Step), at(start), at(end))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// barWidth is how many columns the text timeline's bars span.
const barWidth = 40

// Text prints a run's timeline for a terminal: each step's start and end
// from the run's start, its duration and status, and a bar placing it in
// the run, so parallelism and the critical path show. Lines carry no
// trailing spaces.
func Text(w io.Writer, title string, tl Timeline) error {
	if len(tl.Spans) == 0 {
		// a resume that found every step done: no chart to draw
		_, err := fmt.Fprintf(w, "%s: no step ran in this attempt\n", title)
		return err
	}
	total := tl.end().Sub(tl.Start)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, %s\n", title, render.Duration(total), render.Count(len(tl.Spans), "step", "steps"))
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "STEP\tSTART\tEND\tDURATION\tSTATUS\t0 → %s\n", render.Duration(total))
	for _, sp := range tl.Spans {
		from, to := sp.Start.Sub(tl.Start), sp.End.Sub(tl.Start)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", sp.Step, render.Duration(from), render.Duration(to),
			render.Duration(to-from), sp.Status, bar(from, to, total))
	}
	_ = tw.Flush()
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

// bar draws from..to of total in barWidth columns: at least one block.
func bar(from, to, total time.Duration) string {
	if total <= 0 {
		return "█"
	}
	col := func(d time.Duration) int { return int(int64(d) * barWidth / int64(total)) }
	start, end := min(col(from), barWidth-1), col(to)
	if int64(to)*barWidth%int64(total) != 0 {
		end++ // a part of a column is a column
	}
	end = max(min(end, barWidth), start+1)
	return strings.Repeat(" ", start) + strings.Repeat("█", end-start)
}

// Formats are what a timeline can be printed as: text for a terminal, a
// Mermaid gantt chart for documents.
var Formats = []string{"text", "mermaid"}

// Print prints tl in format, one of Formats.
func Print(w io.Writer, format, title string, tl Timeline) error {
	if format == "text" {
		return Text(w, title, tl)
	}
	return Mermaid(w, title, tl)
}
