package run

import "time"

// NotAhead is a time a run saved (a transition's, a gate's wait, the
// start its id encodes), or now when it is after now: the clock was
// ahead when it was saved and has been set right since. Trusted, it
// would stretch a decision's deadline or a workflow's timeout by as much;
// read as now, it cannot. The run warns once that it read one so.
func (x *Execution) NotAhead(t time.Time) time.Time {
	now := x.Engine.Now()
	if !t.After(now) {
		return t
	}
	x.Warn("a time this run saved (" + t.UTC().Format(time.RFC3339) + ") is after now (" + now.UTC().Format(time.RFC3339) +
		"): the clock was ahead when it was saved; read as now")
	return now
}
