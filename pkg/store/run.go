package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/gofrs/flock"
)

// Run is a run directory held by this process: the engine's journal and
// an event sink writing the audit log.
type Run struct {
	dir string
	// home is where a new run's directory goes when it is published;
	// until then dir is a hidden one beside it.
	home       string
	st         *Store // the store it is saved in
	lock       *flock.Flock
	durability Durability
	rec        Record
	prev       Record

	mu      sync.Mutex
	events  *os.File
	evErr   error
	written int // journal lines written
	// pending are event lines written with the next line that must
	// reach the log (deferred).
	pending []byte

	syncMu sync.Mutex
	synced int // journal lines known to be on disk
}

var (
	_ record.Journal = (*Run)(nil)
	_ event.Sink     = (*Run)(nil)
)

// StepStarted implements run.Journal.
func (r *Run) StepStarted(step string) error {
	return r.save(event.Event{Type: event.StepBegun, Step: step}, nil)
}

// StepFinished implements run.Journal: the step's record is appended to
// the event log before it returns (and flushed to disk with Strict
// durability). The audit log is the journal: one file, one write a step.
func (r *Run) StepFinished(rec record.StepRecord) error {
	return r.save(event.Event{Type: event.StepSaved, Step: rec.Result.ID}, rec)
}

// Transition implements run.Journal: like a finished step's, the record
// is written (and, with Strict durability, on disk) when it returns.
func (r *Run) Transition(rec record.TransitionRecord) error {
	return r.save(event.Event{Type: event.TransitionSaved, Step: rec.Transition, State: rec.From, Target: rec.To}, rec)
}

// journalLine is a journal event as the log holds it: its record is
// written from the value itself (shadowing the event's Record, JSON text
// made beforehand), so a step's output is encoded once, straight into the
// line.
type journalLine struct {
	event.Event
	Record any `json:"record,omitempty"`
}

// writeJournalLine writes what jsonstream.Write(journalLine{e, rec})
// writes: the event's members as appendEvent writes them, then the record,
// which only the record's encoding reflects on.
func writeJournalLine(line *bytes.Buffer, e *event.Event, rec any) error {
	head, ok := appendEvent(line.AvailableBuffer(), e)
	if !ok {
		return jsonstream.Write(line, journalLine{Event: *e, Record: rec}, "")
	}
	if rec == nil {
		line.Write(head)
		return nil
	}
	line.Write(head[:len(head)-1]) // the record is its last member
	line.WriteString(`,"record":`)
	if err := jsonstream.Write(line, rec, ""); err != nil {
		return err
	}
	return line.WriteByte('}')
}

// lines are the buffers journal lines are encoded in, kept for the next
// line: a big output grows one once, not once a step.
var lines = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// save appends a journal event carrying rec; with Strict durability it
// also flushes the log to disk.
func (r *Run) save(e event.Event, rec any) error {
	e.V, e.Time, e.RunID = event.SchemaVersion, time.Now(), r.rec.RunID
	line := lines.Get().(*bytes.Buffer)
	defer func() {
		line.Reset()
		lines.Put(line)
	}()
	if err := writeJournalLine(line, &e, rec); err != nil {
		return err
	}
	line.WriteByte('\n')
	r.mu.Lock()
	if err := r.openLog(); err != nil {
		r.mu.Unlock()
		return err
	}
	if _, err := r.events.Write(r.withPending(line.Bytes())); err != nil {
		r.evErr = err // a partial line would break every later one
		r.mu.Unlock()
		return err
	}
	r.written++
	mine, f := r.written, r.events
	r.mu.Unlock()
	if r.durability != Strict {
		return nil // written: it survives a crash of this process
	}
	// Group commit: one flush covers every line written before it, so
	// steps finishing together share it.
	r.syncMu.Lock()
	defer r.syncMu.Unlock()
	if r.synced >= mine {
		return nil
	}
	r.mu.Lock()
	upTo := r.written
	r.mu.Unlock()
	if err := syncFile(f); err != nil {
		// the kernel reports a failed write-back once: keep the error for
		// every later caller, whose lines may be lost too
		r.mu.Lock()
		if r.evErr == nil {
			r.evErr = err
		}
		r.mu.Unlock()
		return err
	}
	r.synced = upTo
	return nil
}

// syncFile flushes the journal to disk; tests count its calls.
var syncFile = (*os.File).Sync

func (r *Run) openLog() error {
	if r.events == nil && r.evErr == nil {
		path := filepath.Join(r.dir, "events.jsonl")
		r.evErr = trimTornTail(path)
		_, statErr := os.Stat(path)
		if r.evErr == nil {
			r.events, r.evErr = fsutil.OpenFileRegular(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		}
		if r.evErr == nil && statErr != nil && r.durability == Strict {
			// a new log: its directory entry is flushed with it
			_ = fsutil.SyncDir(r.dir)
		}
	}
	return r.evErr
}

// trimTornTail cuts a log back to its last complete line: a crash in the
// middle of a write leaves a fragment that the next line would otherwise
// be glued to.
func trimTornTail(path string) error {
	f, err := fsutil.OpenFileRegular(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	const chunk = 64 << 10
	end := info.Size()
	buf := make([]byte, chunk)
	for pos := end; pos > 0; {
		start := max(pos-chunk, 0)
		n, err := f.ReadAt(buf[:pos-start], start)
		if err != nil && n == 0 {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			if cut := start + int64(i) + 1; cut != end {
				return f.Truncate(cut)
			}
			return nil
		}
		pos = start
	}
	return f.Truncate(0)
}

// Emit implements event.Sink: one JSON line per event, appended. Write
// errors are kept for Err and do not stop the run.
func (r *Run) Emit(e event.Event) {
	if !logged(&e) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// the line goes after the deferred ones, and is written with them
	// unless it is deferred too
	line, ok := appendEvent(r.pending, &e)
	if !ok {
		text, err := json.Marshal(e)
		if err != nil {
			return
		}
		line = append(r.pending, text...)
	}
	r.pending = append(line, '\n')
	if deferred(e.Type) {
		return
	}
	if r.openLog() != nil {
		r.pending = r.pending[:0] // never written: the log is gone
		return
	}
	if _, err := r.events.Write(r.withPending(nil)); err != nil && r.evErr == nil {
		r.evErr = err
	}
}

// logged reports whether the log keeps e. It does not keep streamed
// text: an answer's deltas (the answer is the step's output) and the
// batches of lines --verbose streams of a command's output, for which it
// keeps the step.streamed count sent when the command ended. One line
// per line printed made a journal twenty times the output (150 MB for
// seq 1000000), which every later look at the run read again.
func logged(e *event.Event) bool {
	return e.Type != event.LLMDelta && (e.Type != event.StepLog || e.Lines == "")
}

// deferred are the events a step emits just before another that is
// written at once (its process, its saved record): they go to the log
// with it, in one write, not one write each. A kill of chainrun in
// between loses nothing a resume needs: the journal's lines are never
// deferred.
func deferred(t event.Type) bool {
	return t == event.StepStarted || t == event.StepAttempt || t == event.StepFinished
}

// withPending is line after the deferred lines, which it takes (r.mu is
// held).
func (r *Run) withPending(line []byte) []byte {
	if len(r.pending) == 0 {
		return line
	}
	out := append(r.pending, line...)
	r.pending = r.pending[:0]
	return out
}

// flushPending writes the deferred lines (r.mu is held).
func (r *Run) flushPending() {
	if len(r.pending) == 0 || r.openLog() != nil {
		return
	}
	if _, err := r.events.Write(r.withPending(nil)); err != nil && r.evErr == nil {
		r.evErr = err
	}
}

// Err is the first error writing the event log, if any.
func (r *Run) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushPending()
	return r.evErr
}

// Finish records the result of this attempt.
func (r *Run) Finish(res *record.Result) error {
	// written a piece at a time: the result holds every output
	err := fsutil.WriteFileFrom(filepath.Join(r.dir, "result.json"), func(w io.Writer) error {
		return jsonstream.Write(w, res, "  ")
	}, 0, r.durability == Strict)
	if err != nil {
		return err
	}
	r.rec.Status = res.Status
	r.rec.Error = res.Error
	r.rec.DurationMS += res.DurationMS
	return r.saveRecord()
}

// Close syncs the event log and releases the lock.
func (r *Run) Close() error {
	r.mu.Lock()
	r.flushPending()
	if r.events != nil {
		if r.durability == Strict {
			_ = r.events.Sync()
		}
		_ = r.events.Close()
		r.events = nil
	}
	r.mu.Unlock()
	return r.lock.Unlock()
}

func (r *Run) saveRecord() error {
	r.rec.UpdatedAt = now()
	data, err := json.MarshalIndent(r.rec, "", "  ")
	if err != nil {
		return err
	}
	return r.writeFile(filepath.Join(r.dir, "run.json"), data)
}

// writeFile replaces path with data whole (a reader never sees half of
// it, even after a crash); with Strict durability it is on disk when
// writeFile returns.
func (r *Run) writeFile(path string, data []byte) error {
	return fsutil.WriteFile(path, data, r.durability == Strict)
}

// Discard removes a run that never started (its chain was refused before
// any step ran) and releases its lock.
func (r *Run) Discard() error {
	r.Close()
	if !r.published() {
		return os.RemoveAll(r.dir)
	}
	return r.st.removeDir(r.dir)
}

// ID is the run's id.
func (r *Run) ID() string { return r.rec.RunID }

// Dir is the run's directory, where a step's oversized output is kept
// (under outputs/).
func (r *Run) Dir() string { return r.dir }

// Begin marks the run as running (again, for a resume).
func (r *Run) Begin() error {
	r.prev = r.rec
	r.rec.Status = event.Running
	r.rec.Error = ""
	return r.saveRecord()
}

// Undo restores the record as it was before Begin: an attempt that was
// refused before any step ran leaves the run as it found it.
func (r *Run) Undo() error {
	if r.prev.RunID == "" {
		return nil
	}
	r.rec = r.prev
	return r.saveRecord()
}

// SetInputs records the inputs a resume runs with (secret ones are left
// out by the caller), so that a later resume uses them too.
func (r *Run) SetInputs(inputs map[string]string) { r.rec.Inputs = inputs }

// SetFlags records the run-shaping flags an attempt runs with, so that a
// later resume uses them too.
func (r *Run) SetFlags(flags map[string][]string) { r.rec.Flags = flags }
