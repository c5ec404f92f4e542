package text

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// countingWriter counts the writes it is given.
type countingWriter struct {
	strings.Builder
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Builder.Write(p)
}

// TestRunsShowWritesItsTableInBlocks: runs show of many steps writes
// its table in a few blocks, not a write per row; every row is there,
// the handlers' after the steps, none ending in spaces, and the tails
// of a failed step follow it.
func TestRunsShowWritesItsTableInBlocks(t *testing.T) {
	for _, n := range []int{1, 3000, 10000} {
		res := &record.Result{RunID: "r1", Name: "big", Status: record.Failed}
		for i := range n {
			res.Steps = append(res.Steps, record.StepResult{ID: fmt.Sprintf("step-%d", i), Status: record.StepSucceeded, Attempts: 1, DurationMS: int64(i)})
		}
		res.Steps[n-1].Status, res.Steps[n-1].Stderr = record.StepFailed, "boom"
		res.Handlers = []record.StepResult{{ID: "notify", Handler: "on_failure", Status: record.StepSucceeded, Attempts: 1}}
		var out countingWriter
		if err := Run(&out, &store.Saved{Record: store.Record{RunID: "r1", Name: "big", Status: record.Failed}, Result: res}, nil); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for _, l := range lines {
			if strings.HasSuffix(l, " ") {
				t.Fatalf("%d steps: a row ends in spaces: %q", n, l)
			}
		}
		last := fmt.Sprintf("step-%d ", n-1)
		if !strings.HasPrefix(lines[1], "STEP") || !strings.HasPrefix(lines[2], "step-0 ") || !strings.Contains(text, "\n"+last) ||
			!strings.Contains(text, "\nnotify (on_failure) ") || !strings.Contains(text, fmt.Sprintf("--- stderr of step-%d (last lines) ---\n  boom\n", n-1)) {
			t.Errorf("%d steps: the table lacks a row or the tail:\n%.400s", n, text)
		}
		if len(lines) != n+5 {
			t.Errorf("%d steps: %d lines", n, len(lines))
		}
		if most := 4 + len(text)/(32<<10); out.writes > most {
			t.Errorf("%d steps: %d writes for %d bytes, want at most %d", n, out.writes, len(text), most)
		}
	}
}
