package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/fsutil"
)

// Create starts a new run directory for a run id, takes its lock and
// writes the chain snapshot and record.
func (s *Store) Create(rec Record, snapshot []byte) (*Run, error) {
	r, err := s.reserve(rec)
	if err != nil {
		return nil, err
	}
	if err := r.publish(snapshot); err != nil {
		return nil, err
	}
	return r, nil
}

// reserve takes a new run's id: a hidden directory, locked. Nothing of
// the run is visible until publish renames it into place whole, so a
// crash at any point leaves either no run or a run with its snapshot and
// record, never a half-made one.
func (s *Store) reserve(rec Record) (*Run, error) {
	if !validID(rec.RunID) {
		return nil, fmt.Errorf("invalid run id %q", rec.RunID)
	}
	dir := s.runDir(rec.RunID)
	if _, err := os.Stat(dir); err == nil {
		if s.locked(rec.RunID) {
			return nil, &LockedError{RunID: rec.RunID}
		}
		return nil, fmt.Errorf("run %s already exists", rec.RunID)
	}
	tmp := filepath.Join(s.dir, "runs", newDir, rec.RunID)
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("state directory %s: %w", s.dir, err)
	}
	r, err := s.lockDir(tmp, rec.RunID)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	r.rec, r.home = rec, dir
	return r, nil
}

// newDir holds, under runs/, the runs being made: a run's directory there
// changes nothing the index's stamp watches until it is renamed into
// runs/ itself, with its line in the index written first.
const newDir = ".new"

// publish writes a reserved run's snapshot and record, and renames its
// directory into place. The files are written plainly: the directory is
// hidden until the rename, which makes them appear together. A failure
// discards the run.
func (r *Run) publish(snapshot []byte) error {
	fail := func(err error) error {
		r.Discard()
		return err
	}
	if err := r.writeNew("chain.yaml", snapshot); err != nil {
		return fail(err)
	}
	r.rec.Status = event.Running
	r.rec.UpdatedAt = now()
	data, err := json.MarshalIndent(r.rec, "", "  ")
	if err != nil {
		return fail(err)
	}
	if err := r.writeNew("run.json", data); err != nil {
		return fail(err)
	}
	var err2 error
	r.st.changeRuns(func() bool {
		indexed := r.st.appendEntry(entryOf(r.rec, time.Now())) == nil
		err2 = os.Rename(r.dir, r.home)
		return indexed && err2 == nil
	})
	if err2 != nil {
		return fail(fmt.Errorf("creating run %s: %w", r.rec.RunID, err2))
	}
	r.dir = r.home
	if r.durability == Strict {
		// the run's directory entry must survive a power cut like its files
		_ = fsutil.SyncDir(filepath.Dir(r.dir))
	}
	return nil
}

// writeNew writes a file of a run not yet published (0600; flushed with
// Strict durability).
func (r *Run) writeNew(name string, data []byte) error {
	f, err := os.OpenFile(filepath.Join(r.dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && r.durability == Strict {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// published reports whether the run's directory is in place.
func (r *Run) published() bool { return r.home == "" || r.dir == r.home }
