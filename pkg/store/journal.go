package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/run/record"
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

// lineHead is what the journal reads of every line of the log. Record is
// the text of the record a step.saved or transition.saved event carries,
// decoded only for those.
type lineHead struct {
	V       int        `json:"v"`
	Type    event.Type `json:"type"`
	RunID   string     `json:"run_id"`
	Step    string     `json:"step"`
	Attempt int        `json:"attempt"`
	PID     int        `json:"pid"`
	Record  inLine     `json:"record"`
	Trace   string     `json:"trace"`
}

// inLine is JSON text left undecoded where it is: json.Unmarshal hands
// UnmarshalJSON a slice of its input, which is kept (json.RawMessage
// would copy it, a whole output a line). It is valid while the line is.
type inLine []byte

// UnmarshalJSON keeps data, a slice of the line being read.
func (r *inLine) UnmarshalJSON(data []byte) error {
	*r = data
	return nil
}

// ignored is a value the journal reads past without keeping it.
type ignored struct{}

// UnmarshalJSON reads nothing.
func (*ignored) UnmarshalJSON([]byte) error { return nil }

// readJournal replays the event log line by line (a line is as long as
// the output it carries; one is held at a time): the step.saved and
// step.begun events, where the last record of a step wins and a step that
// finished reusably is no longer "begun"; the transitions; the processes
// of steps that never finished; and the steps the last attempt began and
// never finished. A step's output and a transition's values are kept only
// when sv.values says so. A last line cut short by a crash was never
// acknowledged, so it is ignored.
// It returns how many lines it read.
func readJournal(path, runID string, sv *Saved) (int, error) {
	f, err := fsutil.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	err = jsonstream.Lines(f, func(line []byte) error {
		n++
		err := sv.replay(line, runID)
		var newer *newerError
		if err != nil && (bytes.HasSuffix(line, []byte("\n")) || errors.As(err, &newer)) {
			return fmt.Errorf("line %d: %w", n, err) // a whole line: the log is corrupt
		}
		return nil // or the torn last one
	})
	return n, err
}

// lineType is the type of an event line of this schema version, read
// from its first members without decoding it (they are written in one
// order: v, time, run_id, type); ok is false for a line of another
// shape, which is decoded.
func lineType(line []byte) (t []byte, ok bool) {
	const version, member = `{"v":1,"time":"`, `,"type":"`
	if !bytes.HasPrefix(line, []byte(version)) {
		return nil, false
	}
	head := line[len(version):min(len(line), 256)]
	// the time and the run id hold no unescaped quote: the first
	// ,"type":" is the member
	i := bytes.Index(head, []byte(member))
	if i < 0 {
		return nil, false
	}
	head = head[i+len(member):]
	j := bytes.IndexByte(head, '"')
	if j < 0 || bytes.IndexByte(head[:j], '\\') >= 0 {
		return nil, false
	}
	return head[:j], true
}

// streamedLine reports whether line is a step.log event of this schema
// version, which nothing that reads a run needs: an older chainrun wrote
// one for every line --verbose showed (a million for seq 1000000), and
// decoding each made runs show of such a run take seconds.
func streamedLine(line []byte) bool {
	t, ok := lineType(line)
	return ok && string(t) == string(event.StepLog)
}

// unread reports whether replay passes line over: a step.log line, and
// when only the transitions are read (Show), every line but theirs.
func (sv *Saved) unread(line []byte) bool {
	if !sv.onlyTransitions {
		return streamedLine(line)
	}
	t, ok := lineType(line)
	return ok && string(t) != string(event.TransitionSaved)
}

// replay applies one line of the log.
func (sv *Saved) replay(line []byte, runID string) error {
	if sv.unread(line) {
		return nil
	}
	var e lineHead
	if err := json.Unmarshal(line, &e); err != nil {
		return err
	}
	if e.V > event.SchemaVersion {
		return &newerError{v: e.V}
	}
	own := e.RunID == runID // not a called chain's (RUN/STEP)
	switch e.Type {
	case event.RunStarted:
		if own {
			sv.running, sv.lastCall = nil, len(sv.Transitions)
			if e.Trace != "" {
				sv.Traces = append(sv.Traces, e.Trace)
			}
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
		rec, err := sv.stepRecord(e.Record)
		if err != nil {
			return err
		}
		sv.Steps[rec.Result.ID] = rec
		if rec.Reusable() {
			delete(sv.Started, rec.Result.ID)
		}
	case event.TransitionSaved:
		rec, err := sv.transitionRecord(e.Record)
		if err != nil {
			return err
		}
		sv.Transitions = append(sv.Transitions, rec)
		if rec.Step != nil {
			delete(sv.Started, rec.Step.ID)
		}
		if rec.Ack == nil {
			sv.forgetInner(rec)
		}
	}
	return nil
}

// newerError is an event line of a schema version newer than this
// chainrun's: written by a later chainrun, it may mean what this one
// cannot tell, so it is not read as if it were of its own version.
type newerError struct{ v int }

func (e *newerError) Error() string {
	return fmt.Sprintf("event version %d is newer than this chainrun reads (%d): use the chainrun that wrote it", e.v, event.SchemaVersion)
}

// stepRecord decodes a saved step; without values, its output is only
// whether it was masked (what makes it reusable or not).
func (sv *Saved) stepRecord(data []byte) (record.StepRecord, error) {
	if sv.values {
		var rec record.StepRecord
		err := json.Unmarshal(data, &rec)
		return rec, err
	}
	var head struct {
		record.StepRecord
		Output *struct {
			Masked bool `json:"masked"`
		} `json:"output"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return record.StepRecord{}, err
	}
	if head.Output != nil {
		head.StepRecord.Output = &record.SavedValue{Masked: head.Output.Masked}
	}
	return head.StepRecord, nil
}

// transitionRecord decodes a saved transition; without values, its vars
// and context are left out.
func (sv *Saved) transitionRecord(data []byte) (record.TransitionRecord, error) {
	if sv.values {
		var rec record.TransitionRecord
		err := json.Unmarshal(data, &rec)
		return rec, err
	}
	var head struct {
		record.TransitionRecord
		Vars    ignored `json:"vars"`
		Context ignored `json:"context"`
	}
	err := json.Unmarshal(data, &head)
	return head.TransitionRecord, err
}

// forgetInner drops, once a workflow moved on (or a workflow a step runs
// began anew), the steps saved inside the executors it ran where it was
// (a parallel's branches, a pipeline's steps, a called workflow's or
// chain's steps) and their marks: a later visit of that state runs them
// anew, and a resume asks no --rerun of them. At a move of a workflow a
// step runs (Within), only that workflow's are dropped.
func (sv *Saved) forgetInner(rec record.TransitionRecord) {
	prefix := ""
	if rec.Within != "" {
		prefix = rec.Within + "/"
	}
	done := func(id string) bool {
		rest, ok := strings.CutPrefix(id, prefix)
		if !ok {
			return false
		}
		// a new workflow: all of it; a move: what its executors saved
		return rec.Enter != nil || strings.ContainsAny(rest, "/[")
	}
	maps.DeleteFunc(sv.Steps, func(id string, _ record.StepRecord) bool { return done(id) })
	maps.DeleteFunc(sv.Started, func(id string, _ bool) bool { return done(id) })
}
