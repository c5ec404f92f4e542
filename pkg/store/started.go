package store

import (
	"time"

	"github.com/chainrun/chainrun/pkg/run"
)

// startedLayout is how run.json keeps started_at: RFC 3339 in UTC, to the
// millisecond, at a fixed width, so that it sorts as it reads (as
// updated_at is RFC 3339).
const startedLayout = "2006-01-02T15:04:05.000Z07:00"

// oldStartedLayout is started_at as runs saved before it was RFC 3339
// kept it: the run id's date and time.
const oldStartedLayout = "20060102-150405"

// runStart is the start time a run id encodes, as run.json keeps it.
func runStart(runID string) string {
	if t, ok := run.RunIDTime(runID); ok {
		return t.UTC().Format(startedLayout)
	}
	return ""
}

// readStarted is a saved started_at in today's form: one in the old form
// is converted, so old runs still load, list and sort with new ones.
func readStarted(s string) string {
	if t, err := time.ParseInLocation(oldStartedLayout, s, time.UTC); err == nil {
		return t.Format(startedLayout)
	}
	return s
}
