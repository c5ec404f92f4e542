package store

import (
	"context"
	"path/filepath"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Session is one attempt of a saved run. It owns the run's directory from
// the moment the run is created (Start) or taken for another attempt
// (Continue) until the attempt ends: Drive saves every step and event,
// records the result and releases the run, and a refusal before any step
// ran leaves nothing behind. A caller never sequences the lifecycle by
// hand.
type Session struct {
	run *Run
	// fresh is a run created by this session: refused, it is discarded.
	fresh bool
	// snapshot is a fresh run's chain source, written when it is driven.
	snapshot []byte
	closed   bool
}

// NewRecord describes a run about to start; secret inputs are named, not
// kept (they must be given again to resume).
func NewRecord(c *chain.Chain, runID string, inputs map[string]string) Record {
	rec := Record{RunID: runID, Name: c.Name, ChainFile: c.File, Inputs: publicInputs(c, inputs), StartedAt: runStart(runID)}
	if abs, err := filepath.Abs(c.File); err == nil {
		rec.ChainFile = abs
	}
	for k := range inputs {
		if in := c.Input(k); in != nil && in.Secret {
			rec.Secrets = append(rec.Secrets, k)
		}
	}
	return rec
}

// publicInputs is inputs without the secret ones.
func publicInputs(c *chain.Chain, inputs map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range inputs {
		if in := c.Input(k); in == nil || !in.Secret {
			out[k] = v
		}
	}
	return out
}

// Start creates a saved run of c with a new id: its record (secrets left
// out), the chain's source as its snapshot, and its lock.
func (s *Store) Start(c *chain.Chain, inputs map[string]string, lenient bool) (*Session, error) {
	rec := NewRecord(c, run.NewRunID(time.Now()), inputs)
	rec.LenientVariables = lenient
	r, err := s.reserve(rec)
	if err != nil {
		return nil, err
	}
	return &Session{run: r, fresh: true, snapshot: c.Source}, nil
}

// Continue takes a saved run, locked, for another attempt, with what it
// saved so far. Close the session if it is not driven.
func (s *Store) Continue(id string) (*Session, *Saved, error) {
	r, saved, err := s.Resume(id)
	if err != nil {
		return nil, nil, err
	}
	return &Session{run: r}, saved, nil
}

// ID is the run's id.
func (ss *Session) ID() string { return ss.run.ID() }

// SetFlags records the run-shaping flags the attempt runs with.
func (ss *Session) SetFlags(flags map[string][]string) { ss.run.SetFlags(flags) }

// SetInputs records the inputs the attempt runs with, secret ones left
// out, so that a later resume uses them too.
func (ss *Session) SetInputs(c *chain.Chain, inputs map[string]string) {
	ss.run.SetInputs(publicInputs(c, inputs))
}

// Drive runs req on engine as this saved run: its id, every step
// (journal) and event (log) saved, big outputs kept in its directory, and
// the result recorded. A refusal before any step ran (an error) leaves a
// new run discarded and a resumed one as it was. Either way the session
// is closed when Drive returns. Failures to record the result or the log
// are warnings on the result: the run itself happened.
func (ss *Session) Drive(ctx context.Context, engine run.Engine, req run.Request) (*record.Result, error) {
	defer ss.Close()
	r := ss.run
	if req.Dir == "" {
		req.Dir = r.rec.Dir // a resume goes on where the run started
	} else if r.rec.Dir == "" {
		r.rec.Dir = realDir(req.Dir)
	}
	if ss.fresh {
		// the run appears now, its record whole: one write, not two
		if err := r.publish(ss.snapshot); err != nil {
			// as when the run cannot even be reserved: it runs, unsaved
			ss.closed = true
			res, rerr := engine.Run(ctx, req)
			if res != nil {
				res.Warnings = append(res.Warnings, NotSaved(err))
			}
			return res, rerr
		}
	} else if err := r.Begin(); err != nil {
		return nil, err
	}
	req.RunID = r.ID()
	req.Journal = r
	req.OutputDir = filepath.Join(r.Dir(), "outputs")
	req.Events = event.Multi(withoutNil(req.Events, r))
	res, err := engine.Run(ctx, req)
	if err != nil {
		if ss.fresh {
			_ = r.Discard()
			ss.closed = true
		} else {
			_ = r.Undo()
		}
		return nil, err
	}
	if ferr := r.Finish(res); ferr != nil {
		res.Warnings = append(res.Warnings, "saving the run result: "+ferr.Error())
	}
	if eerr := r.Err(); eerr != nil {
		res.Warnings = append(res.Warnings, "writing the event log: "+eerr.Error())
	}
	ss.Close() // released, then old runs pruned: never this one
	if perr := r.st.retain(r.ID()); perr != nil {
		res.Warnings = append(res.Warnings, "pruning old runs (retention): "+perr.Error())
	}
	return res, nil
}

// Close releases the run without driving it (a resume that stops before
// running). It is safe to call more than once.
func (ss *Session) Close() error {
	if ss.closed {
		return nil
	}
	ss.closed = true
	if !ss.run.published() {
		return ss.run.Discard() // a new run never driven leaves nothing
	}
	return ss.run.Close()
}

// NotSaved is the warning of a run that went ahead although it could not
// be saved (a read-only or full state directory).
func NotSaved(err error) string {
	return "this run is not saved and cannot be resumed: " + err.Error()
}

func withoutNil(sinks ...event.Sink) []event.Sink {
	out := sinks[:0]
	for _, s := range sinks {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}
