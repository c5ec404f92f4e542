package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

// span is one step's time in a run, read back from its event log.
type span struct {
	step       string
	start, end time.Time
	status     string
}

// readSpans collects step start and end times of the last attempt of a
// run from its events.jsonl (an attempt begins at run.started).
func readSpans(path string) ([]span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	byStep := map[string]*span{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event.Event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch e.Type {
		case event.RunStarted:
			if !strings.Contains(e.RunID, "/") { // a new attempt of the top-level run
				byStep, order = map[string]*span{}, nil
			}
		case event.StepStarted:
			if strings.Contains(e.RunID, "/") {
				continue // steps of called chains stay inside their chain step
			}
			byStep[e.Step] = &span{step: e.Step, start: e.Time}
			order = append(order, e.Step)
		case event.StepFinished:
			if sp := byStep[e.Step]; sp != nil && !strings.Contains(e.RunID, "/") {
				sp.end, sp.status = e.Time, e.Status
			}
		}
	}
	var out []span
	for _, id := range order {
		if sp := byStep[id]; !sp.end.IsZero() {
			out = append(out, *sp)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start.Before(out[j].start) })
	return out, sc.Err()
}

// writeGantt prints a Mermaid gantt chart of a run: one bar per step from
// its start to its end, so parallelism and the critical path show.
func writeGantt(w io.Writer, title string, spans []span) error {
	var b strings.Builder
	fmt.Fprintf(&b, "gantt\n  title %s\n  dateFormat x\n  axisFormat %%M:%%S.%%L\n", title)
	for _, sp := range spans {
		tag := ""
		switch sp.status {
		case "failed":
			tag = "crit, "
		case "skipped", "cached":
			tag = "done, "
		}
		end := sp.end
		if !end.After(sp.start) {
			end = sp.start.Add(time.Millisecond) // a bar must have a length
		}
		fmt.Fprintf(&b, "  %s :%s%s, %d, %d\n", strings.ReplaceAll(sp.step, ":", "_"), tag, mermaidID(sp.step), sp.start.UnixMilli(), end.UnixMilli())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func eventsPath(stateDir, runID string) string {
	return filepath.Join(stateDir, "runs", runID, "events.jsonl")
}
