package store

import (
	"fmt"
	"math"
	"strings"
	"time"
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
				return nil, bad("retention.keep: %v is not a whole number of 0 or more (how many of the newest runs stay)", val)
			}
			r.Keep = n
		case "older_than":
			s, ok := val.(string)
			age, err := ParseAge(s)
			if !ok || err != nil {
				return nil, bad("retention.older_than: %v is not an age; want a duration like 36h, 30d or 2w", val)
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
// finished.
func (s *Store) retain(just string) error {
	if s.retention == nil {
		return nil
	}
	if keep := s.retention.Keep; keep >= 0 && s.trusted() {
		if n, err := s.indexLines(); err == nil && n <= keep {
			return nil // no more runs than it keeps: nothing read
		}
	}
	_, err := s.Prune(PruneRule{Keep: s.retention.Keep, OlderThan: s.retention.OlderThan, Now: time.Now(), spare: just})
	return err
}

// spared reports whether a prune must keep the run of id.
func (p PruneRule) spared(id string) bool { return p.spare != "" && p.spare == id }
