package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestSavedTimesAheadAreReadAsNow: a run saved while the clock was ahead
// (its id's start, the time it reached the decision) has the decision's
// deadline counted from now, not from the future, with a warning, whether
// it waits at its first state or reached the decision by a transition.
// (Nothing tells how far ahead the clock was: each resume reads it as its
// own now.)
func TestSavedTimesAheadAreReadAsNow(t *testing.T) {
	src := `version: '1'
workflows:
  w:
    initialState: START
    states:
      go:
        transitions:
          next: {target: wait, actor: deterministic}
      wait:
        goal: Approve
        timeout: 1m
        on_timeout: reject
        transitions:
          approve: {target: done, actor: human}
          reject: {target: done, actor: human}
      done: {terminal: true}
`
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, start string
		ahead       time.Duration
	}{
		{"at its first state, a year ahead", "wait", 365 * 24 * time.Hour},
		{"reached by a transition, a day ahead", "go", 24 * time.Hour},
		{"a minute and a second ahead", "go", time.Minute + time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := load(t, strings.Replace(src, "START", tc.start, 1))
			e := New(WithDir(t.TempDir()))
			then := now.Add(tc.ahead)
			e.Now = func() time.Time { return then }
			id := NewRunID(then)
			j := &memJournal{}
			res, _ := e.Run(context.Background(), Request{RunID: id, Chain: c, Journal: j})
			if res.Status != record.Paused {
				t.Fatalf("%s %s", res.Status, res.Error)
			}
			e.Now = func() time.Time { return now } // the clock set right
			res, _ = e.Run(context.Background(), Request{RunID: id, Chain: c, History: j.transitions})
			if res.Status != record.Paused || res.Deadline != "2026-03-01T10:01:00Z" {
				t.Fatalf("%s deadline %q, want a minute from now", res.Status, res.Deadline)
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "is after now (2026-03-01T10:00:00Z): the clock was ahead when it was saved; read as now") {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}
