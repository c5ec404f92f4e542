package store

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

// Retention is config `retention: {keep: N, older_than: 30d}`: after
// each run, the saved runs beyond the newest Keep that last changed
// longer ago than OlderThan are removed, as `runs prune --keep N
// --older-than D` removes them. It is off unless set; a run a process
// drives, and the run that just finished, are never removed.
type Retention struct {
	// Keep is how many of the newest runs stay; -1: no such rule.
	Keep int
	// OlderThan is how long ago a run last changed for it to go; 0: any
	// age.
	OlderThan time.Duration
}

// RetentionError is a retention setting that cannot be used: exit 2.
type RetentionError struct{ Msg string }

func (e *RetentionError) Error() string { return e.Msg }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *RetentionError) NothingRan() bool { return true }

var retentionKeys = []string{"keep", "older_than"}

// ReadRetention reads config's retention value (nil, nil when it is not
// set). An error names the key, after where (the config file).
func ReadRetention(where string, v any) (*Retention, error) {
	if v == nil {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return &RetentionError{where + fmt.Sprintf(format, args...)}
	}
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, bad("retention: want a mapping of keep (how many of the newest runs stay), older_than (how old a run may grow) or both, like {keep: 100, older_than: 30d}")
	}
	r := &Retention{Keep: -1}
	for k, val := range m {
		switch k {
		case "keep":
			n, ok := wholeNumber(val)
			if !ok || n < 0 {
				return nil, bad("retention.keep: %s is not a whole number of 0 or more (how many of the newest runs stay)", asWritten(val, true))
			}
			r.Keep = n
		case "older_than":
			s, ok := val.(string)
			age, err := ParseAge(s)
			if !ok || err != nil {
				return nil, bad("retention.older_than: %s is not an age; want a duration like 36h, 30d or 2w", asWritten(val, false))
			}
			r.OlderThan = age
		default:
			return nil, bad("retention: unknown key %q (keys are %s)", k, strings.Join(retentionKeys, ", "))
		}
	}
	return r, nil
}

// wholeNumber is v as YAML reads a whole number.
func wholeNumber(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), x <= math.MaxInt && x >= math.MinInt
	case uint64:
		return int(x), x <= math.MaxInt
	}
	return 0, false
}

// SetRetention has every run this store drives from now on end by
// pruning the saved runs r says (nil: none).
func (s *Store) SetRetention(r *Retention) { s.retention = r }

// retain prunes as the store's retention says, sparing the run just
// finished. With the index trusted it reads only what it must: the
// records of the newest Keep runs, and the index from its oldest line
// on, up to the first written after the age limit (a run whose line came
// later than its start by more than that goes on a later pass), reading
// the records of the runs it may remove. Otherwise it prunes as `runs
// prune` does.
func (s *Store) retain(just string) error {
	r := s.retention
	if r == nil {
		return nil
	}
	now := time.Now()
	everyRun := func() error { // as runs prune does
		_, err := s.Prune(PruneRule{Keep: r.Keep, OlderThan: r.OlderThan, Now: now, spare: just})
		return err
	}
	if !s.trusted() {
		return everyRun()
	}
	if r.Keep >= 0 && s.fewerLines(r.Keep) {
		return nil // no more runs than it keeps
	}
	kept := map[string]bool{just: true}
	if r.Keep > 0 {
		err := s.Runs(Filter{Limit: r.Keep}, func(rec Record) bool {
			kept[rec.RunID] = true
			return true
		})
		if err != nil {
			return err
		}
	}
	var removed []Record
	var failed error
	err := s.eachEntry(func(e entry) bool {
		if r.OlderThan > 0 && now.Sub(time.UnixMilli(e.at)) < r.OlderThan {
			return false // every later line was written later
		}
		rec, ok := s.record(e.id)
		if kept[e.id] || !ok || rec.Status == event.Running {
			return true
		}
		if changed := s.lastChange(rec); r.OlderThan > 0 && (changed.After(now) || now.Sub(changed) < r.OlderThan) {
			return true
		}
		err := s.remove(rec.RunID)
		if errors.As(err, new(*LockedError)) || errors.Is(err, fs.ErrNotExist) {
			return true // a process took it, or another prune removed it
		}
		if failed = err; err != nil {
			return false
		}
		removed = append(removed, rec)
		kept[e.id] = true // a line twice: removed once
		return true
	})
	if err != nil && len(removed) == 0 {
		return everyRun() // the index is damaged since it was checked
	}
	if len(removed) > 0 {
		s.compact(removed)
	}
	return cmp.Or(failed, err)
}

// spared reports whether a prune must keep the run of id.
func (p PruneRule) spared(id string) bool { return p.spare != "" && p.spare == id }

// asWritten shows a config value as its author would know it: text as
// it is, or quoted and said to be text where a number is wanted (keep:
// "2"), a number in full rather than as 1e+20, a list or a mapping by
// what it is.
func asWritten(v any, number bool) string {
	switch x := v.(type) {
	case string:
		if number {
			return strconv.Quote(x) + " (text)"
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return fmt.Sprint(v)
}
