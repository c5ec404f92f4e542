package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Runs calls yield with the saved runs the filter picks, newest first
// (as List orders them), up to its Limit, and stops when yield returns
// false. It reads the index back from its end, so the newest runs cost
// what they cost with ten saved runs, and a whole listing streams: each
// run is yielded as soon as no older line of the index can hold a newer
// one. A run whose record cannot be read comes last, as corrupt. When
// the index cannot be trusted nor rebuilt it reads every run, as List
// did before there was an index.
func (s *Store) Runs(f Filter, yield func(Record) bool) error {
	if _, err := os.Stat(filepath.Join(s.dir, "runs")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	w := &walk{s: s, f: f, yield: yield, seen: map[string]bool{}, given: map[string]bool{}}
	if !s.trusted() {
		return w.scanRest()
	}
	b, err := openBackward(s.indexPath())
	if err != nil {
		s.dropStamp() // gone or not a file since it was checked: rebuilt next
		return w.scanRest()
	}
	defer b.close()
	for !w.stop && !w.full {
		line, err := b.next()
		if err == io.EOF {
			break
		}
		e, perr := parseEntry(line)
		if err != nil || perr != nil {
			// damaged since it was checked: the rest comes from runs/
			s.dropStamp()
			return w.scanRest()
		}
		w.line(e)
	}
	w.flush(time.Time{})
	return nil
}

// walk is one Runs: the runs read and not yet yielded, newest first.
type walk struct {
	s       *Store
	f       Filter
	yield   func(Record) bool
	seen    map[string]bool
	given   map[string]bool
	pending []dated
	stop    bool
	// reads counts the records read; full is set once the filter's
	// bound on them is reached: no older line is read.
	reads int
	full  bool
}

// dated is a run read, with the start time it is ordered by (ok false
// for a run whose start is not known: it comes last).
type dated struct {
	rec Record
	t   time.Time
	ok  bool
}

// line takes the index's next line back: every run whose start is after
// the line's time is newer than any run of an older line, so it goes
// out; the line's run is read when the filter may pick it.
func (w *walk) line(e entry) {
	w.flush(time.UnixMilli(e.at))
	if w.stop || w.seen[e.id] {
		return
	}
	w.seen[e.id] = true
	if !strings.HasPrefix(e.id, w.f.Prefix) || (e.name != "" && w.f.Chain != "" && e.name != w.f.Chain) || (e.dir != "" && !within(e.dir, w.f.Under)) {
		return // its chain or directory never changes
	}
	rec, ok := w.s.record(e.id)
	w.reads++
	if w.f.reads > 0 && w.reads >= w.f.reads {
		w.full = true
	}
	if !ok || !w.f.picks(rec) {
		return
	}
	d := dated{rec: rec}
	d.t, d.ok = startTime(rec.StartedAt)
	i := sort.Search(len(w.pending), func(i int) bool { return newer(d, w.pending[i]) })
	w.pending = slices.Insert(w.pending, i, d)
}

// flush yields the runs read that started after bound (every one, for
// the zero time).
func (w *walk) flush(bound time.Time) {
	for len(w.pending) > 0 && !w.stop {
		d := w.pending[0]
		if !bound.IsZero() && !(d.ok && d.t.After(bound)) {
			return
		}
		w.pending = w.pending[1:]
		w.give(d.rec)
	}
}

func (w *walk) give(r Record) {
	w.stop = !w.yield(r)
	w.given[r.RunID] = true
	if w.f.Limit > 0 && len(w.given) >= w.f.Limit {
		w.stop = true
	}
}

// scanRest reads every run from runs/ and yields those not yielded yet,
// newest first.
func (w *walk) scanRest() error {
	w.pending = nil // read, not yet yielded: scan reads them again
	recs, err := w.s.scan()
	if err != nil {
		return err
	}
	for _, r := range recs {
		if w.stop {
			break
		}
		if !w.given[r.RunID] && w.f.picks(r) {
			w.give(r)
		}
	}
	return nil
}

// newer is List's order: the later start first, then the greater id; a
// run whose start is not known after every other.
func newer(a, b dated) bool {
	if a.rec.StartedAt != b.rec.StartedAt {
		return a.rec.StartedAt > b.rec.StartedAt
	}
	return a.rec.RunID > b.rec.RunID
}

// startTime reads a record's started_at.
func startTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// scan reads every run's record from runs/, newest first.
func (s *Store) scan() ([]Record, error) {
	names, err := runNames(filepath.Join(s.dir, "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", s.dir, err)
	}
	out := make([]Record, 0, len(names))
	for _, id := range names {
		if rec, ok := s.record(id); ok {
			out = append(out, rec)
		}
	}
	sort.Slice(out, func(i, j int) bool { return newer(dated{rec: out[i]}, dated{rec: out[j]}) })
	return out, nil
}

// picks reports whether the filter picks a run (its Limit aside).
func (f Filter) picks(r Record) bool {
	return strings.HasPrefix(r.RunID, f.Prefix) && (f.Chain == "" || r.Name == f.Chain) && (len(f.Statuses) == 0 || slices.Contains(f.Statuses, r.Status)) && within(r.Dir, f.Under)
}

// Count is how many runs are saved (the directories of runs/, which it
// lists without reading them).
func (s *Store) Count() (int, error) {
	names, err := runNames(filepath.Join(s.dir, "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	return len(names), err
}

// Newest is the runs the filter picks, newest first, up to its Limit.
func (s *Store) Newest(f Filter) ([]Record, error) {
	var out []Record
	err := s.Runs(f, func(r Record) bool {
		out = append(out, r)
		return true
	})
	return out, err
}
