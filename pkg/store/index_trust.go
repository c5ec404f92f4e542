package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/gofrs/flock"
)

// The index is trusted only while runs/ is as it was when the index was
// last known whole: the stamp file (<state>/runs.stamp) holds runs/'s
// dirStamp from then. Every change chainrun makes to runs/ (a run's
// directory appearing, a run removed) is made holding the stamp file's
// lock, and the stamp renewed after it when it matched before; anything
// else that adds or removes a run (an older chainrun, a copy, rm -r)
// leaves a stamp that no longer matches, and the next reader rebuilds
// the index from runs/ (repair) or, when another process holds the lock,
// reads runs/ itself. A run's line is written before its directory
// appears, so a crash between the two leaves a line without a run, which
// readers skip, never a run without a line.

// lockWait bounds how long a change to runs/ waits for the index's lock
// (held by a rebuild, which reads every run's record once).
const lockWait = 10 * time.Second

// lockIndex takes the index's lock; the function releases it. ok is
// false when it could not be taken in time: the caller changes runs/
// without it and leaves the stamp unmatched.
func (s *Store) lockIndex() (unlock func(), ok bool) {
	l := flock.New(filepath.Join(s.dir, stampFile), flock.SetFlag(os.O_CREATE|os.O_RDWR))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	if got, err := l.TryLockContext(ctx, 5*time.Millisecond); err != nil || !got {
		return func() {}, false
	}
	return func() { _ = l.Unlock() }, true
}

// fresh reports whether runs/ is as the stamp says: the index lists
// every run there.
func (s *Store) fresh() bool {
	want, err := fsutil.ReadRegular(filepath.Join(s.dir, stampFile), 1<<10)
	if err != nil || len(want) == 0 {
		return false
	}
	got, err := dirStamp(filepath.Join(s.dir, "runs"))
	return err == nil && got == string(want)
}

// writeStamp records runs/ as it is now (the caller holds the lock and
// knows the index whole).
func (s *Store) writeStamp() {
	st, err := dirStamp(filepath.Join(s.dir, "runs"))
	if err != nil {
		s.dropStamp()
		return
	}
	s.putStamp(st)
}

// putStamp writes the stamp in place: the file is also the lock, which
// a file renamed over it would no longer be.
func (s *Store) putStamp(st string) {
	f, err := fsutil.OpenFileRegular(filepath.Join(s.dir, stampFile), os.O_WRONLY|os.O_TRUNC|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.WriteString(st)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		s.dropStamp()
	}
}

// dropStamp makes the index untrusted until it is rebuilt.
func (s *Store) dropStamp() { _ = os.Truncate(filepath.Join(s.dir, stampFile), 0) }

// changeRuns makes a change to runs/ under the index's lock, and renews
// the stamp when the index was whole before it and the change went as
// planned (change returns true); otherwise the stamp is dropped.
func (s *Store) changeRuns(change func() bool) {
	unlock, locked := s.lockIndex()
	defer unlock()
	whole := locked && s.fresh()
	if change() && whole {
		s.writeStamp()
		return
	}
	s.dropStamp()
}

// trusted makes the index one to trust: it is, or it is rebuilt now. It
// is false when it cannot be (another process holds the lock, or the
// state directory cannot be written): the caller reads runs/ itself.
func (s *Store) trusted() bool {
	if s.fresh() {
		return true
	}
	l := flock.New(filepath.Join(s.dir, stampFile), flock.SetFlag(os.O_CREATE|os.O_RDWR))
	if ok, err := l.TryLock(); err != nil || !ok {
		return false
	}
	defer l.Unlock()
	return s.fresh() || s.repair() == nil
}

// repair rebuilds the index from runs/ (the caller holds the lock): the
// lines of the old one whose runs are there, and a line for each run it
// missed, made from the run's record, in the order of their times. The
// stamp is runs/'s from before it was read, so a change while it was
// read leaves the index untrusted.
func (s *Store) repair() error {
	runs := filepath.Join(s.dir, "runs")
	stamp, err := dirStamp(runs)
	if err != nil {
		return err
	}
	names, err := runNames(runs)
	if err != nil {
		return err
	}
	old, _ := s.readIndex() // a damaged index is rebuilt from the runs alone
	known := make(map[string]entry, len(old))
	for _, e := range old {
		if _, dup := known[e.id]; !dup {
			known[e.id] = e
		}
	}
	entries := make([]entry, 0, len(names))
	for _, id := range names {
		e, ok := known[id]
		if !ok {
			rec, _ := s.record(id)
			e = entry{id: id, name: rec.Name, dir: rec.Dir}
			if t, err := time.Parse(time.RFC3339Nano, rec.StartedAt); err == nil {
				e.at = t.Add(time.Millisecond - 1).UnixMilli() // never before the start
			}
		}
		entries = append(entries, e)
	}
	slices.SortStableFunc(entries, func(a, b entry) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return strings.Compare(a.id, b.id)
	})
	var buf bytes.Buffer
	buf.WriteString(indexHeader + "\n")
	for _, e := range entries {
		buf.Write(e.format())
	}
	if err := fsutil.WriteFile(s.indexPath(), buf.Bytes(), s.durability == Strict); err != nil {
		return err
	}
	s.putStamp(stamp)
	return nil
}

// compact drops the index's lines of runs a prune removed, so that the
// index grows with the runs kept, not with every run ever made. It
// leaves the index untrusted when it cannot rewrite it.
func (s *Store) compact(removed []Record) {
	unlock, locked := s.lockIndex()
	defer unlock()
	whole := locked && s.fresh()
	entries, err := s.readIndex()
	if !locked || err != nil {
		s.dropStamp()
		return
	}
	gone := make(map[string]bool, len(removed))
	for _, r := range removed {
		gone[r.RunID] = true
	}
	var buf bytes.Buffer
	buf.WriteString(indexHeader + "\n")
	for _, e := range entries {
		if !gone[e.id] {
			buf.Write(e.format())
		}
	}
	if fsutil.WriteFile(s.indexPath(), buf.Bytes(), s.durability == Strict) != nil || !whole {
		s.dropStamp()
	}
}

// fewerLines reports whether the index holds at most n lines of runs
// (at least as many as the runs saved, when it is trusted): its size
// answers without reading it when it is small enough, else its newlines
// are counted.
func (s *Store) fewerLines(n int) bool {
	fi, err := os.Stat(s.indexPath())
	if err != nil {
		return false
	}
	if fi.Size() <= int64(n)*int64(minLine)+int64(len(indexHeader)+1) {
		return true
	}
	data, err := fsutil.ReadRegular(s.indexPath(), maxStateFile)
	return err == nil && bytes.Count(data, []byte("\n"))-1 <= n
}

// minLine is the shortest line of a run the index holds: an id of one
// character, a time of one digit and two empty names.
const minLine = len(`a 0 "" ""`) + 1

// runNames are the names of the runs' directories (not the hidden ones
// of runs being made or removed), in no order.
func runNames(runs string) ([]string, error) {
	d, err := os.Open(runs)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	var names []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names, err
}

// record reads a run's record as a listing shows it: a run whose record
// cannot be read is corrupt, one whose record says running while its
// lock is free is interrupted. ok is false when no such run is saved.
func (s *Store) record(id string) (Record, bool) {
	data, err := readStateFile(filepath.Join(s.runDir(id), "run.json"))
	var rec Record
	if err == nil {
		rec, err = readRecord(data, id)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if fi, serr := os.Stat(s.runDir(id)); serr != nil || !fi.IsDir() {
				return Record{}, false
			}
		}
		return Record{RunID: id, Status: event.Corrupt}, true
	}
	if rec.Status == event.Running && !s.locked(rec.RunID) {
		rec.Status = record.Interrupted
	}
	rec.StartedAt = readStarted(rec.StartedAt)
	return rec, true
}
