package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Saved is a run read back from disk.
type Saved struct {
	Record   Record
	Snapshot []byte
	// Steps are the saved steps by id, the last record of each. Their
	// outputs are read only by a resume (Store.Resume), which restores
	// them: otherwise each Output holds only whether it was masked.
	Steps   map[string]record.StepRecord
	Started map[string]bool
	// Result is the last attempt's result, or for a run whose process
	// died the one its journal gives. Its output, vars and context are
	// read by Load (what -o json prints), not by Summary.
	Result *record.Result
	// Transitions are a workflow run's transitions, in the order taken;
	// their vars and context are read as the steps' outputs are.
	Transitions []record.TransitionRecord
	// Traces are the traceparents of the run spans of the attempts that
	// were exported as traces, oldest first: a resume links to them.
	Traces []string
	// processes are the process groups of steps that started and never
	// finished, by run id and step.
	processes map[string][]int
	// running are the steps the last attempt began and never finished,
	// in the order they began; lastCall is where that attempt's
	// transitions begin in Transitions.
	running  []runningStep
	lastCall int
	// values says the journal's values were read (outputs, vars, context).
	values bool
	// onlyTransitions says the journal's other lines were passed over
	// (Show).
	onlyTransitions bool
}

// parts are what a load reads of the values a run produced. A run holds
// every output of its steps twice, in its journal and in its result: no
// reader needs both, and reading both would take twice the memory of the
// outputs.
type parts int

const (
	// journalValues: the steps' outputs and the transitions' vars and
	// context, which a resume restores.
	journalValues parts = 1 << iota
	// resultValues: the last result's output, vars and context, which
	// -o json prints (for a run whose process died, the journal's
	// values make that result).
	resultValues
	// asResumed: journalValues, or resultValues for a run that already
	// succeeded (a resume only prints its result).
	asResumed
	// shown: only what runs show prints, the record, the result and a
	// workflow's transitions; the steps' records are not read (but for a
	// run whose process died, whose result they make).
	shown
)

// Load reads a saved run without locking it: its record, snapshot, the
// steps and transitions of its journal, and its last result whole. A run
// whose process died (its record says running, its lock is free) is
// interrupted, and its result is rebuilt from the journal.
func (s *Store) Load(id string) (*Saved, error) { return s.load(id, resultValues) }

// Summary is Load without the values the run produced (outputs, vars,
// context): what lists and shows a run, in memory that does not grow
// with its outputs.
func (s *Store) Summary(id string) (*Saved, error) { return s.load(id, 0) }

// Show reads what runs show prints of a run: its record, its last result
// (with the values it produced when values is set: -o json) and a
// workflow's transitions. Its Steps and Started are left empty: the
// journal's lines are passed over without being decoded, but for the
// transitions, so a run of 10,000 steps shows as fast as its result
// reads. A run whose process died is read as Summary or Load reads it.
func (s *Store) Show(id string, values bool) (*Saved, error) {
	if values {
		return s.load(id, resultValues|shown)
	}
	return s.load(id, shown)
}

func (s *Store) load(id string, want parts) (*Saved, error) {
	if !validID(id) {
		return nil, &NotFoundError{RunID: id, Dir: s.dir}
	}
	dir := s.runDir(id)
	data, err := readStateFile(filepath.Join(dir, "run.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NotFoundError{RunID: id, Dir: s.dir}
	}
	if err != nil {
		return nil, &CorruptError{RunID: id, File: "run.json", Err: err}
	}
	sv := &Saved{Steps: map[string]record.StepRecord{}, Started: map[string]bool{}, processes: map[string][]int{}}
	if sv.Record, err = readRecord(data, id); err != nil {
		return nil, &CorruptError{RunID: id, File: "run.json", Err: err}
	}
	sv.Record.StartedAt = readStarted(sv.Record.StartedAt)
	if sv.Snapshot, err = readStateFile(filepath.Join(dir, "chain.yaml")); err != nil {
		return nil, &CorruptError{RunID: id, File: "chain.yaml", Err: err}
	}
	resuming := want&asResumed != 0
	if resuming {
		want = journalValues
		if sv.Record.Status == event.Succeeded {
			want = resultValues
		}
	}
	crashed := sv.Record.Status == event.Running && !s.locked(id)
	sv.values = want&journalValues != 0 || crashed && want&resultValues != 0
	sv.onlyTransitions = want&shown != 0 && !crashed
	resultPath := filepath.Join(dir, "result.json")
	var early chan resultRead
	if sv.onlyTransitions {
		// the result does not hang on the journal: on a second core it
		// is read while the journal is passed over
		early = make(chan resultRead, 1)
		go func() {
			res, err := readResult(resultPath, want&resultValues != 0)
			early <- resultRead{res, err}
		}()
	}
	lines, err := readJournal(filepath.Join(dir, "events.jsonl"), id, sv)
	if err != nil {
		return nil, &CorruptError{RunID: id, File: "events.jsonl", Err: err}
	}
	if lines == 0 {
		if err := lostJournal(dir, sv.Record); err != nil {
			return nil, &CorruptError{RunID: id, File: "events.jsonl", Err: err}
		}
	}
	if crashed {
		sv.Record.Status = record.Interrupted
		// its process died before writing a result (a result.json there
		// is an earlier attempt's): the journal says how far it got
		sv.Result = sv.partialResult()
	}
	if sv.Result == nil {
		// none yet is no result; one cut short or garbled is damage
		if early != nil {
			r := <-early
			sv.Result, err = r.res, r.err
		} else {
			sv.Result, err = readResult(resultPath, want&resultValues != 0)
		}
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, &CorruptError{RunID: id, File: "result.json", Err: fmt.Errorf("it is cut short (%v)", err)}
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, &CorruptError{RunID: id, File: "result.json", Err: err}
		}
		if resuming {
			if err := cutJournal(sv); err != nil {
				return nil, &CorruptError{RunID: id, File: "events.jsonl", Err: err}
			}
		}
	}
	return sv, nil
}

// cutJournal is the error of a run whose event log lacks a step that its
// result says succeeded: the log was cut (restored from an older copy,
// truncated), and a resume, which reads what ran from the log, would run
// that step again, an idempotent: false one too.
func cutJournal(sv *Saved) error {
	if sv.Result == nil {
		return nil
	}
	saved := map[string]bool{}
	for id := range sv.Steps {
		saved[id] = true
	}
	for _, t := range sv.Transitions {
		if t.Step != nil {
			saved[t.Step.ID] = true
		}
	}
	for _, st := range sv.Result.Steps {
		if st.Status == record.StepSucceeded && !saved[st.ID] {
			return fmt.Errorf("it holds no record of step %q, which result.json says succeeded: the log was cut short, and resuming would run that step again", st.ID)
		}
	}
	return nil
}

// resultRead is result.json as read: the result or why not.
type resultRead struct {
	res *record.Result
	err error
}

// lostJournal is the error of a run whose event log is empty or missing
// while its record or its result says an attempt of it ended: the log
// was lost, not never written, and a resume would run every step again.
// A run still running may have written nothing yet.
func lostJournal(dir string, rec Record) error {
	_, err := os.Stat(filepath.Join(dir, "result.json"))
	if rec.Status == event.Running && err != nil {
		return nil
	}
	why := "run.json says it is " + string(rec.Status)
	if rec.Status == event.Running {
		why = "result.json holds an attempt's result"
	}
	return fmt.Errorf("it is empty or missing, yet %s: the journal of its steps and transitions is lost, and resuming would run them again", why)
}
