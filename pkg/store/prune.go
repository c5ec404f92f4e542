package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// PruneRule says which saved runs `chainrun runs prune` removes: of the
// runs Filter picks (its Limit unused), those older than OlderThan, when
// it is set, and not among the newest Keep, when it is set. With both, a
// run goes only when both say so: --keep is a floor under --older-than.
// A run a process drives (its lock is held) is never removed.
type PruneRule struct {
	Filter Filter
	// OlderThan is how long ago a run last changed (its last attempt
	// ended, or began) for it to go; 0: any age.
	OlderThan time.Duration
	// Keep is how many of the newest picked runs stay; negative: no such
	// rule.
	Keep int
	// DryRun removes nothing: the result says what would go.
	DryRun bool
	// Now is the time ages are measured from.
	Now time.Time
	// spare is a run kept whatever the rule says (the run just finished,
	// when retention prunes).
	spare string
}

// NewPruneRule checks the choices of `runs prune`: olderThan an age
// (ParseAge; "" for none), keep the newest runs kept (nil for none), at
// least one of them, and a filter as NewFilter's. A choice that cannot be
// used is a FilterError naming its flag.
func NewPruneRule(olderThan string, keep *int, chain string, statuses []string, now time.Time) (PruneRule, error) {
	rule := PruneRule{Keep: -1, Now: now}
	if keep != nil {
		if *keep < 0 {
			return rule, &FilterError{fmt.Sprintf("--keep %d: want 0 (remove every run) or more", *keep)}
		}
		rule.Keep = *keep
	}
	if olderThan != "" {
		age, err := ParseAge(olderThan)
		if err != nil {
			return rule, &FilterError{"--older-than: " + err.Error()}
		}
		rule.OlderThan = age
	}
	if keep == nil && olderThan == "" {
		return rule, &FilterError{"runs prune needs --older-than DURATION, --keep N or both; see " + response.Command() + " runs prune --help"}
	}
	var err error
	rule.Filter, err = NewFilter(chain, statuses, 0)
	return rule, err
}

// Pruned is what Prune removed (or, in a dry run, would remove), newest
// first, and the runs it picked but kept because a process drives them.
// Ahead are the runs whose saved time is after now (saved while the
// clock was ahead): their age is read as none, so --older-than keeps
// them, and the prune says so.
type Pruned struct {
	Removed []Record
	Running []Record
	Ahead   []Record
}

// Prune removes the saved runs the rule picks. A run is removed under its
// lock, renamed out of sight first, so that no process can resume it
// half-removed; one whose lock is held is kept and listed as running. An
// error stops it: what was removed by then is in the result.
func (s *Store) Prune(p PruneRule) (Pruned, error) {
	var out Pruned
	recs, err := s.List()
	if err != nil {
		return out, err
	}
	s.removeLeftovers()
	p.Filter.Limit = 0
	for i, r := range p.Filter.Apply(recs) {
		changed := s.lastChange(r)
		if p.OlderThan > 0 && changed.After(p.Now) {
			out.Ahead = append(out.Ahead, r)
			changed = p.Now
		}
		if p.Keep >= 0 && i < p.Keep || p.OlderThan > 0 && p.Now.Sub(changed) < p.OlderThan || p.spared(r.RunID) {
			continue
		}
		if r.Status == event.Running || p.DryRun && s.locked(r.RunID) {
			out.Running = append(out.Running, r)
			continue
		}
		if !p.DryRun {
			err := s.remove(r.RunID)
			if errors.As(err, new(*LockedError)) {
				out.Running = append(out.Running, r) // a resume took it since it was listed
				continue
			}
			if err != nil {
				return out, err
			}
		}
		out.Removed = append(out.Removed, r)
	}
	if !p.DryRun && len(out.Removed) > 0 {
		s.compact(out.Removed)
	}
	return out, nil
}

// prunePrefix is where, under runs/, a run directory being removed goes
// first: List skips it and no run id names it.
const prunePrefix = ".prune/"

// remove deletes a saved run holding its lock: its directory is moved
// out of sight, the lock released, then the directory removed.
func (s *Store) remove(id string) error {
	if !validID(id) {
		return &NotFoundError{RunID: id, Dir: s.dir}
	}
	r, err := s.lock(id)
	if err != nil {
		return err
	}
	gone, err := s.hide(s.runDir(id))
	r.Close()
	if err != nil {
		return fmt.Errorf("removing run %s: %w", id, err)
	}
	if err := os.RemoveAll(gone); err != nil {
		return fmt.Errorf("removing run %s: %w", id, err)
	}
	return nil
}

// removeDir removes a run's directory from runs/ (a run discarded once
// it was published).
func (s *Store) removeDir(dir string) error {
	gone, err := s.hide(dir)
	if err != nil {
		return err
	}
	return os.RemoveAll(gone)
}

// hide moves a run's directory out of runs/ into its prunePrefix
// directory, under the index's lock (the index's line of it is then one
// without a run, which readers skip), and returns where it went.
func (s *Store) hide(dir string) (string, error) {
	gone := filepath.Join(s.dir, "runs", prunePrefix+filepath.Base(dir))
	var err error
	s.changeRuns(func() bool {
		_ = os.MkdirAll(filepath.Dir(gone), 0o700)
		err = os.Rename(dir, gone)
		return err == nil
	})
	return gone, err
}

// removeLeftovers finishes the removals an earlier prune began and did
// not end (it was killed while deleting; an older chainrun left them
// beside the runs as .prune-ID).
func (s *Store) removeLeftovers() {
	for _, pattern := range []string{prunePrefix + "*", ".prune-*"} {
		leftovers, _ := filepath.Glob(filepath.Join(s.dir, "runs", pattern))
		for _, dir := range leftovers {
			_ = os.RemoveAll(dir)
		}
	}
}

// lastChange is when a saved run last changed: its record's updated_at,
// else its start (its id's time for a run whose record cannot be read),
// else its directory's modification time.
func (s *Store) lastChange(r Record) time.Time {
	for _, v := range []string{r.UpdatedAt, r.StartedAt} {
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t
		}
	}
	if t, ok := run.RunIDTime(r.RunID); ok {
		return t
	}
	if fi, err := os.Stat(s.runDir(r.RunID)); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}

// ageTerm is one number and unit of an age: Go's units, and d (24h) and w
// (7d).
var ageTerm = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w)`) })

// ParseAge reads an age as `runs prune --older-than` takes it: a Go
// duration (90m, 36h, 1h30m) whose units may also be d (days of 24
// hours) and w (weeks): 7d, 2w, 1w3d12h. It must be more than zero.
func ParseAge(s string) (time.Duration, error) {
	rest := strings.TrimSpace(s)
	if rest == "" {
		return 0, fmt.Errorf("an age is empty; want a duration like 36h, 7d or 2w")
	}
	var total time.Duration
	for rest != "" {
		m := ageTerm().FindStringSubmatch(rest)
		if m == nil {
			return 0, fmt.Errorf("%q is not an age; want a duration like 36h, 7d or 2w", s)
		}
		rest = rest[len(m[0]):]
		unit := m[2]
		n, _ := strconv.ParseFloat(m[1], 64)
		switch unit {
		case "d":
			n, unit = n*24, "h"
		case "w":
			n, unit = n*24*7, "h"
		}
		d, err := time.ParseDuration(strconv.FormatFloat(n, 'f', -1, 64) + unit)
		if err != nil {
			return 0, fmt.Errorf("%q: %w", s, err)
		}
		total += d
	}
	if total <= 0 {
		return 0, fmt.Errorf("%q is no time at all; want more than zero (--keep 0 removes every run)", s)
	}
	return total, nil
}
