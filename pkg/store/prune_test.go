package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

func TestParseAge(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"36h", 36 * time.Hour},
		{"90m", 90 * time.Minute},
		{"1h30m", 90 * time.Minute},
		{"7d", 7 * 24 * time.Hour},
		{"2w", 14 * 24 * time.Hour},
		{"1w3d12h", (10*24 + 12) * time.Hour},
		{"1.5d", 36 * time.Hour},
		{" 30s ", 30 * time.Second},
		{"500ms", 500 * time.Millisecond},
	} {
		got, err := ParseAge(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "7", "d", "7days", "-1d", "1y", "0d", "0s", "7d x", "1.2.3h", "99999999999w"} {
		if d, err := ParseAge(bad); err == nil {
			t.Errorf("ParseAge(%q) = %v, want an error", bad, d)
		}
	}
}

// pruneStore is a store with five finished runs of two chains, one a day
// (ids and records say so), the newest first in the list; the second
// newest is driven by a process (its lock is held) until the test ends.
func pruneStore(t *testing.T, now time.Time) (*Store, []string) {
	t.Helper()
	s := Open(t.TempDir())
	var ids []string
	for i := range 5 {
		at := now.Add(-time.Duration(i) * 24 * time.Hour)
		id := at.UTC().Format("20060102-150405") + "-000-" + []string{"aaaaaa", "bbbbbb", "cccccc", "dddddd", "eeeeee"}[i]
		name, status := "build", event.Succeeded
		if i%2 == 1 {
			name, status = "deploy", event.Failed
		}
		r, err := s.Create(Record{RunID: id, Name: name, Status: status, StartedAt: at.UTC().Format(startedLayout)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := r.rec
		rec.Status = status
		rec.UpdatedAt = at.Add(time.Minute).UTC().Format(time.RFC3339Nano)
		data, _ := json.Marshal(rec)
		if err := os.WriteFile(filepath.Join(s.runDir(id), "run.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			t.Cleanup(func() { r.Close() })
		} else {
			r.Close()
		}
		ids = append(ids, id)
	}
	return s, ids
}

func ids(recs []Record) []string {
	out := []string{}
	for _, r := range recs {
		out = append(out, r.RunID)
	}
	return out
}

func TestPrune(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	deploy, _ := NewFilter("", []string{"failed"}, 0)
	for _, tc := range []struct {
		name             string
		rule             PruneRule
		removed, running []int // indexes of the runs, newest first
	}{
		{"keep the newest two", PruneRule{Keep: 2}, []int{2, 3, 4}, nil},
		{"keep none: the driven run stays", PruneRule{Keep: 0}, []int{0, 2, 3, 4}, []int{1}},
		{"older than 36 hours", PruneRule{Keep: -1, OlderThan: 36 * time.Hour}, []int{2, 3, 4}, nil},
		{"older than a day: the driven run stays", PruneRule{Keep: -1, OlderThan: 23 * time.Hour}, []int{2, 3, 4}, []int{1}},
		{"both: older than a day and not among the newest three", PruneRule{Keep: 3, OlderThan: 23 * time.Hour}, []int{3, 4}, nil},
		{"one status: the newest failed one kept", PruneRule{Keep: 1, Filter: deploy}, []int{3}, nil},
		{"nothing that old", PruneRule{Keep: -1, OlderThan: 30 * 24 * time.Hour}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, dry := range []bool{true, false} {
				s, all := pruneStore(t, now)
				tc.rule.Now, tc.rule.DryRun = now, dry
				got, err := s.Prune(tc.rule)
				if err != nil {
					t.Fatal(err)
				}
				pick := func(ix []int) []string {
					out := []string{}
					for _, i := range ix {
						out = append(out, all[i])
					}
					return out
				}
				if !slices.Equal(ids(got.Removed), pick(tc.removed)) || !slices.Equal(ids(got.Running), pick(tc.running)) {
					t.Errorf("dry run %v: removed %v, kept running %v; want %v and %v", dry, ids(got.Removed), ids(got.Running), pick(tc.removed), pick(tc.running))
				}
				left, _ := s.List()
				want := len(all)
				if !dry {
					want -= len(tc.removed)
				}
				if len(left) != want {
					t.Errorf("dry run %v: %d runs left, want %d", dry, len(left), want)
				}
				for _, id := range ids(got.Removed) {
					if _, err := os.Stat(s.runDir(id)); dry == os.IsNotExist(err) {
						t.Errorf("dry run %v: run %s's directory: %v", dry, id, err)
					}
				}
			}
		})
	}
}

// TestPruneFailedStatusFilter: the filter picks before Keep counts, so
// --status failed --keep 1 keeps the newest failed run and removes the
// older failed one, whatever the others are.
func TestPruneFailedStatusFilter(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	s, all := pruneStore(t, now)
	// run 1 (failed) is driven: Keep 0 over failed runs removes run 3
	failed, _ := NewFilter("deploy", []string{"failed"}, 0)
	got, err := s.Prune(PruneRule{Keep: 0, Filter: failed, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(got.Removed), []string{all[3]}) {
		t.Errorf("removed %v, want %v", ids(got.Removed), all[3:4])
	}
}

// TestPruneFinishesLeftovers: a removal an earlier prune began (a hidden
// directory) is finished, and is never listed.
func TestPruneFinishesLeftovers(t *testing.T) {
	s := Open(t.TempDir())
	left := filepath.Join(s.Dir(), "runs", prunePrefix+"20260101-000000-000-aaaaaa")
	if err := os.MkdirAll(left, 0o700); err != nil {
		t.Fatal(err)
	}
	if recs, _ := s.List(); len(recs) != 0 {
		t.Fatalf("a run being removed is listed: %v", recs)
	}
	if _, err := s.Prune(PruneRule{Keep: 0, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the leftover is still there: %v", err)
	}
}

func TestNewPruneRule(t *testing.T) {
	now := time.Now()
	two, neg := 2, -1
	r, err := NewPruneRule("1w", &two, "ci", []string{"failed"}, now)
	if err != nil || r.Keep != 2 || r.OlderThan != 7*24*time.Hour || r.Filter.Chain != "ci" || !r.Now.Equal(now) {
		t.Errorf("got %+v, %v", r, err)
	}
	if r, err := NewPruneRule("36h", nil, "", nil, now); err != nil || r.Keep != -1 {
		t.Errorf("no --keep: got %+v, %v", r, err)
	}
	for _, tc := range []struct {
		age  string
		keep *int
		st   []string
		want string
	}{
		{"", nil, nil, "runs prune needs --older-than DURATION, --keep N or both"},
		{"", &neg, nil, "--keep -1: want 0 (remove every run) or more"},
		{"soon", &two, nil, `--older-than: "soon" is not an age`},
		{"", &two, []string{"gone"}, "--status gone: a run's status is one of"},
	} {
		_, err := NewPruneRule(tc.age, tc.keep, "", tc.st, now)
		var fe *FilterError
		if !errors.As(err, &fe) || !fe.NothingRan() || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("NewPruneRule(%q, %v, %v) = %v, want a FilterError beginning %q", tc.age, tc.keep, tc.st, err, tc.want)
		}
	}
}

// TestPruneReadsATimeAheadAsNow: a run whose saved time (updated_at, else
// started_at, else its id's) is after now is read as changed now:
// --older-than keeps it and the prune names it among Ahead.
func TestPruneReadsATimeAheadAsNow(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	ahead := now.Add(400 * 24 * time.Hour)
	for _, tc := range []struct {
		name string
		rec  Record
	}{
		{"updated_at ahead", Record{RunID: "20260101-000000-000-aaaaaa", StartedAt: "2026-01-01T00:00:00.000Z", UpdatedAt: ahead.Format(time.RFC3339)}},
		{"started_at ahead, no updated_at", Record{RunID: "20260101-000000-000-aaaaaa", StartedAt: ahead.Format(startedLayout)}},
		{"only the id ahead", Record{RunID: ahead.Format("20060102-150405") + "-000-aaaaaa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			old := Record{RunID: "20200101-000000-000-bbbbbb", Name: "c", Status: event.Failed, StartedAt: "2020-01-01T00:00:00.000Z"}
			tc.rec.Name, tc.rec.Status = "c", event.Failed
			for _, rec := range []Record{old, tc.rec} {
				// as saved by a clock of its own
				b, _ := json.Marshal(rec)
				os.MkdirAll(s.runDir(rec.RunID), 0o755)
				if err := os.WriteFile(filepath.Join(s.runDir(rec.RunID), "run.json"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rule, err := NewPruneRule("1h", nil, "", nil, now)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Prune(rule)
			if err != nil || len(got.Removed) != 1 || got.Removed[0].RunID != old.RunID || len(got.Ahead) != 1 || got.Ahead[0].RunID != tc.rec.RunID {
				t.Fatalf("%+v %v", got, err)
			}
			if _, err := os.Stat(s.runDir(tc.rec.RunID)); err != nil {
				t.Errorf("the run ahead was removed: %v", err)
			}
		})
	}
}
