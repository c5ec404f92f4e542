package gantt

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/render/graph"
)

// Span is one step's time in a run, read back from its event log.
type Span struct {
	Step       string
	Start, End time.Time
	Status     event.Status
}

// ReadSpans collects step start and end times of the last attempt of a
// run from its events.jsonl (an attempt begins at run.started).
func ReadSpans(path string) ([]Span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	byStep := map[string]*Span{}
	var order []string
	err = jsonstream.Lines(f, func(line []byte) error {
		// the fields a bar needs: a line's record (a step's whole
		// output) is read past, not kept
		var e struct {
			Type   event.Type   `json:"type"`
			RunID  string       `json:"run_id"`
			Step   string       `json:"step"`
			Time   time.Time    `json:"time"`
			Status event.Status `json:"status"`
		}
		if json.Unmarshal(line, &e) != nil {
			return nil
		}
		switch e.Type {
		case event.RunStarted:
			if !strings.Contains(e.RunID, "/") { // a new attempt of the top-level run
				byStep, order = map[string]*Span{}, nil
			}
		case event.StepStarted:
			if strings.Contains(e.RunID, "/") {
				return nil // steps of called chains stay inside their chain step
			}
			byStep[e.Step] = &Span{Step: e.Step, Start: e.Time}
			order = append(order, e.Step)
		case event.StepFinished:
			if sp := byStep[e.Step]; sp != nil && !strings.Contains(e.RunID, "/") {
				sp.End, sp.Status = e.Time, e.Status
			}
		}
		return nil
	})
	var out []Span
	for _, id := range order {
		if sp := byStep[id]; !sp.End.IsZero() {
			out = append(out, *sp)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out, err
}

// Write prints a Mermaid gantt chart of a run: one bar per step from its
// start to its end, so parallelism and the critical path show.
func Write(w io.Writer, title string, spans []Span) error {
	var b strings.Builder
	fmt.Fprintf(&b, "gantt\n  title %s\n  dateFormat x\n  axisFormat %%M:%%S.%%L\n", title)
	for _, sp := range spans {
		tag := ""
		switch sp.Status {
		case "failed":
			tag = "crit, "
		case "skipped", "cached":
			tag = "done, "
		}
		end := sp.End
		if !end.After(sp.Start) {
			end = sp.Start.Add(time.Millisecond) // a bar must have a length
		}
		fmt.Fprintf(&b, "  %s :%s%s, %d, %d\n", strings.ReplaceAll(sp.Step, ":", "_"), tag, graph.MermaidID(sp.Step), sp.Start.UnixMilli(), end.UnixMilli())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
