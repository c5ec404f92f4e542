package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
)

// runningStep is a step of a run's last attempt that began and never
// finished: its process died while the step ran.
type runningStep struct {
	id       string
	attempts int
}

// runningIndex is where step id is among the running steps, or -1.
func (sv *Saved) runningIndex(id string) int {
	return slices.IndexFunc(sv.running, func(r runningStep) bool { return r.id == id })
}

// readJournal replays the event log's step.saved and step.begun events:
// the last record of a step wins, and a step that finished reusably is no
// longer "begun". A last line cut short by a crash was never
// acknowledged, so it is ignored.
func readJournal(path, runID string, sv *Saved) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if line == "" {
			continue
		}
		var e event.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			if i == len(lines)-1 {
				break // torn final write
			}
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		own := e.RunID == runID // not a called chain's (RUN/STEP)
		switch e.Type {
		case event.RunStarted:
			if own {
				sv.running, sv.lastCall = nil, len(sv.Transitions)
			}
		case event.StepStarted:
			if own {
				sv.running = append(sv.running, runningStep{id: e.Step})
			}
		case event.StepAttempt:
			if i := sv.runningIndex(e.Step); own && i >= 0 {
				sv.running[i].attempts = e.Attempt
			}
		case event.StepProcess:
			sv.processes[e.RunID+"\x00"+e.Step] = append(sv.processes[e.RunID+"\x00"+e.Step], e.PID)
		case event.StepFinished:
			delete(sv.processes, e.RunID+"\x00"+e.Step)
			if i := sv.runningIndex(e.Step); own && i >= 0 {
				sv.running = slices.Delete(sv.running, i, i+1)
			}
		case event.StepBegun:
			sv.Started[e.Step] = true
		case event.StepSaved:
			var rec run.StepRecord
			if err := json.Unmarshal(e.Record, &rec); err != nil {
				return fmt.Errorf("line %d: %w", i+1, err)
			}
			sv.Steps[rec.Result.ID] = rec
			if rec.Reusable() {
				delete(sv.Started, rec.Result.ID)
			}
		case event.TransitionSaved:
			var rec run.TransitionRecord
			if err := json.Unmarshal(e.Record, &rec); err != nil {
				return fmt.Errorf("line %d: %w", i+1, err)
			}
			sv.Transitions = append(sv.Transitions, rec)
			if rec.Step != nil {
				delete(sv.Started, rec.Step.ID)
			}
		}
	}
	return nil
}
