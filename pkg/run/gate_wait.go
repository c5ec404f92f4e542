package run

import (
	"errors"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// gateWait is a gate the run waits at: its question and since when.
type gateWait struct {
	question string
	since    time.Time
	limit    time.Duration // 0: no deadline
}

// pausedError is a gate that waits for a decision; skippedError a step
// that decided to be skipped (a gate's timeout with on_timeout: skip).
type pausedError struct{ since time.Time }

func (e *pausedError) Error() string { return "waiting for approval" }

type skippedError struct{ reason string }

func (e *skippedError) Error() string { return e.reason }

// held reports a step that did not run to an end of its own: a gate that
// waits (paused) or skipped itself, with the reason and, for a gate that
// waits, since when (RFC 3339).
func held(err error) (status record.StepStatus, reason, since string, ok bool) {
	var pe *pausedError
	var se *skippedError
	switch {
	case errors.As(err, &pe):
		return record.Paused, "waiting for approval (resume --take approve or reject)", pe.since.UTC().Format(time.RFC3339Nano), true
	case errors.As(err, &se):
		return record.StepSkipped, se.reason, "", true
	}
	return "", "", "", false
}

// gateTake is the decision resume --take gives gate id: approve or
// reject, for every gate the run waits at, or GATE:approve for one.
func (x *Execution) gateTake(id string) string {
	gate, decision, one := strings.Cut(x.Req.Take, ":")
	if !one {
		return x.Req.Take
	}
	if gate == id {
		return decision
	}
	return ""
}
