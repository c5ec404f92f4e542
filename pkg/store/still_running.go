package store

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/executor"
)

// StillRunningError is a run whose earlier attempt left a step's process
// running (chainrun itself was killed): resuming now would run that step
// a second time while the first still works. Nothing ran.
type StillRunningError struct {
	RunID string
	Step  string
	PGID  int
}

func (e *StillRunningError) Error() string {
	return fmt.Sprintf("run %s: step %s is still running from an earlier attempt (process group %d); wait for it to end, or stop it (kill -TERM -- -%d), then resume",
		e.RunID, e.Step, e.PGID, e.PGID)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *StillRunningError) NothingRan() bool { return true }

// stillRunning reports the first step whose process, started by an
// earlier attempt that never saw it finish, is alive.
func (sv *Saved) stillRunning(runID string) error {
	keys := make([]string, 0, len(sv.processes))
	for k := range sv.processes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, pgid := range sv.processes[k] {
			if groupOutlives(pgid) {
				_, step, _ := strings.Cut(k, "\x00")
				return &StillRunningError{RunID: runID, Step: step, PGID: pgid}
			}
		}
	}
	return nil
}

// groupOutlives reports whether group pgid is still alive after a short
// wait: a group just killed takes a moment to go.
func groupOutlives(pgid int) bool {
	for range 20 {
		if !executor.GroupAlive(pgid) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}
