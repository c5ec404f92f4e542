package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/retry"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/gofrs/flock"
)

// Store is a state directory.
type Store struct {
	dir        string
	durability Durability
	retention  *Retention
}

// Open returns the store in dir (created on first use).
func Open(dir string) *Store { return &Store{dir: dir} }

// SetDurability says how far runs created or resumed from now on flush
// what they save (Normal unless set).
func (s *Store) SetDurability(d Durability) { s.durability = d }

// Dir is the state directory.
func (s *Store) Dir() string { return s.dir }

// Record is run.json: what a run is and how it stands.
type Record struct {
	RunID     string       `json:"run_id"`
	Name      string       `json:"name"`
	ChainFile string       `json:"chain_file"`
	Status    event.Status `json:"status"`
	StartedAt string       `json:"started_at"`
	UpdatedAt string       `json:"updated_at"`
	// DurationMS adds up the time of every attempt (run and resumes).
	DurationMS int64 `json:"duration_ms"`
	// Inputs holds every input except secret ones, named in Secrets:
	// those must be given again to resume.
	Inputs  map[string]string `json:"inputs"`
	Secrets []string          `json:"secrets,omitempty"`
	// LenientVariables records strict_variables: false at launch, so a
	// resume reads the snapshot, and renders it, the way the run began.
	LenientVariables bool `json:"lenient_variables,omitempty"`
	// Dir is the directory the run started in: a resume runs the rest
	// there. Runs saved before it was recorded resume in the current one.
	Dir string `json:"dir,omitempty"`
	// Flags are the run-shaping flags given at launch (or changed by a
	// resume), by name with their values, so a resume runs the same way.
	Flags map[string][]string `json:"flags,omitempty"`
	Error string              `json:"error,omitempty"`
}

// NotFoundError is a run id with no saved run; Under is the project
// directory "last" was looked for in, when it was.
type NotFoundError struct{ RunID, Dir, Under string }

func (e *NotFoundError) Error() string {
	if e.Under != "" {
		return fmt.Sprintf("no run started in %s or below (%s runs --all lists the runs of every directory)", e.Under, response.Command())
	}
	return fmt.Sprintf("no run %q in %s (%s runs lists them)", e.RunID, e.Dir, response.Command())
}

// LockedError is a run another process is driving.
type LockedError struct{ RunID string }

func (e *LockedError) Error() string {
	return fmt.Sprintf("run %s is being driven by another chainrun process; wait for it to finish", e.RunID)
}

// CorruptError is a run whose files cannot be read back.
type CorruptError struct {
	RunID, File string
	Err         error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("run %s: %s cannot be read: %v", e.RunID, e.File, e.Err)
}

func (s *Store) runDir(id string) string { return filepath.Join(s.dir, "runs", id) }

// validID keeps a run id from naming anything outside the store.
func validID(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\`) && id != "." && id != ".."
}

// Resume takes the lock of a saved run and loads it for another attempt;
// its record says running once the attempt begins (Begin).
func (s *Store) Resume(id string) (*Run, *Saved, error) {
	if _, err := os.Stat(filepath.Join(s.runDir(id), "run.json")); err != nil || !validID(id) {
		return nil, nil, &NotFoundError{RunID: id, Dir: s.dir}
	}
	r, err := s.lockRetry(id)
	if err != nil {
		return nil, nil, err
	}
	// read only once the lock is ours: nothing can change the run now
	saved, err := s.load(id, asResumed)
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	if err := saved.stillRunning(id); err != nil {
		// an earlier attempt's step outlived it (chainrun was killed):
		// running it again now would run it twice at once
		r.Close()
		return nil, nil, err
	}
	if saved.Record.Status == event.Running {
		// its driver is gone (we hold the lock): it was interrupted
		saved.Record.Status = record.Interrupted
	}
	r.rec = saved.Record
	return r, saved, nil
}

func (s *Store) lock(id string) (*Run, error) {
	return s.lockDir(s.runDir(id), id)
}

// lockDir takes the lock of the run in dir (the lock holds the file, so it
// stays held when the directory is renamed).
func (s *Store) lockDir(dir, id string) (*Run, error) {
	l, err := runLock(dir)
	if err != nil {
		return nil, &CorruptError{RunID: id, File: filepath.Join(dir, "lock"), Err: err}
	}
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("locking run %s: %w", id, err)
	}
	if !ok {
		return nil, &LockedError{RunID: id}
	}
	return &Run{dir: dir, lock: l, durability: s.durability, st: s}, nil
}

// runLock is the lock of the run in dir. A lock that is not a regular
// file (a FIFO, a link, a device) is refused at once, naming it: opening
// a FIFO waits for a writer, for ever and deaf to SIGTERM, and a link
// could lead anywhere.
func runLock(dir string) (*flock.Flock, error) {
	path := filepath.Join(dir, "lock")
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("it is %s, not a regular file", fsutil.Kind(fi.Mode()))
	}
	return flock.New(path), nil
}

// lockRetry takes a run's lock, trying again briefly: a `runs` listing
// probing the lock holds it for an instant.
func (s *Store) lockRetry(id string) (*Run, error) {
	var r *Run
	err := retry.Do(context.Background(), lockPolicy, retry.Hooks{
		Retryable: func(err error) bool {
			var le *LockedError
			return errors.As(err, &le)
		},
	}, func(int) error {
		var err error
		r, err = s.lock(id)
		return err
	})
	return r, err
}

// lockPolicy is how long a resume waits out a brief holder of the lock.
var lockPolicy = retry.Policy{Attempts: 20, Delay: 10 * time.Millisecond}

// locked reports whether a process holds the run's lock.
func (s *Store) locked(id string) bool {
	l, err := runLock(s.runDir(id))
	if err != nil {
		return false
	}
	ok, err := l.TryLock()
	if err != nil {
		return false
	}
	if ok {
		_ = l.Unlock()
		return false
	}
	return true
}

// List returns every saved run's record, newest first. Runs that cannot be
// read are listed with status "corrupt".
func (s *Store) List() ([]Record, error) { return s.Newest(Filter{}) }

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }
