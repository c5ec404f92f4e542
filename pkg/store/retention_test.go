package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// drive runs one session of c to its end on s, as `chainrun run` does.
func drive(t *testing.T, s *Store) string {
	t.Helper()
	c := sessionChain(t)
	ss, err := s.Start(c, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ss.Drive(context.Background(), &scriptedEngine{status: record.Succeeded}, run.Request{Chain: c, Dir: "/p"})
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("%v %v", err, res.Warnings)
	}
	return ss.ID()
}

// TestRetentionPrunesAfterEachRun: with retention set, each run's end
// prunes the runs it says; never the run that just finished, nor one a
// process drives; without it nothing goes.
func TestRetentionPrunesAfterEachRun(t *testing.T) {
	old := func(s *Store, i int) string { // a run that ended 60 days ago
		id := run.NewRunID(time.Now().AddDate(0, 0, -60).Add(time.Duration(i) * time.Minute))
		copyIn(t, s, id, "c", "/p")
		return id
	}
	for _, tc := range []struct {
		name string
		r    *Retention
		// setup saves runs before the one driven; want says which stay
		// (by index into setup's ids, -1 the driven run)
		setup func(s *Store) []string
		want  []int
	}{
		{"off unless set", nil, func(s *Store) []string { return []string{old(s, 1), old(s, 2)} }, []int{-1, 1, 0}},
		{"keep 2", &Retention{Keep: 2}, func(s *Store) []string { return []string{old(s, 1), old(s, 2), old(s, 3)} }, []int{-1, 2}},
		{"keep 0 spares the run just finished", &Retention{Keep: 0}, func(s *Store) []string { return []string{old(s, 1)} }, []int{-1}},
		{"older than 30 days", &Retention{Keep: -1, OlderThan: 30 * 24 * time.Hour}, func(s *Store) []string {
			recent := run.NewRunID(time.Now().Add(-time.Hour))
			copyIn(t, s, recent, "c", "/p")
			return []string{old(s, 1), recent}
		}, []int{-1, 1}},
		{"keep 1 and older than 30 days: both must say so", &Retention{Keep: 1, OlderThan: 30 * 24 * time.Hour}, func(s *Store) []string {
			recent := run.NewRunID(time.Now().Add(-time.Hour))
			copyIn(t, s, recent, "c", "/p")
			return []string{old(s, 1), old(s, 2), recent}
		}, []int{-1, 2}},
		{"a run whose lock is held stays", &Retention{Keep: 0}, func(s *Store) []string {
			r, err := s.Create(Record{RunID: testID(5), Name: "c", Dir: "/p"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return []string{old(s, 1), testID(5)}
		}, []int{-1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			made := tc.setup(s)
			s.SetRetention(tc.r)
			just := drive(t, s)
			var want []string
			for _, i := range tc.want {
				if i < 0 {
					want = append(want, just)
				} else {
					want = append(want, made[i])
				}
			}
			if got, _ := s.List(); !slices.Equal(ids(got), want) {
				t.Errorf("left %v, want %v", ids(got), want)
			}
		})
	}
}

func TestReadRetention(t *testing.T) {
	for _, tc := range []struct {
		v       any
		want    *Retention
		wantErr string
	}{
		{nil, nil, ""},
		{map[string]any{"keep": 5}, &Retention{Keep: 5}, ""},
		{map[string]any{"older_than": "30d"}, &Retention{Keep: -1, OlderThan: 30 * 24 * time.Hour}, ""},
		{map[string]any{"keep": uint64(0), "older_than": "2w"}, &Retention{Keep: 0, OlderThan: 14 * 24 * time.Hour}, ""},
		{map[string]any{"keep": -1}, nil, "f: retention.keep: -1 is not a whole number of 0 or more"},
		{map[string]any{"keep": "ten"}, nil, "f: retention.keep: \"ten\" (text) is not"},
		{map[string]any{"keep": "2"}, nil, "f: retention.keep: \"2\" (text) is not a whole number"},
		{map[string]any{"keep": 1e20}, nil, "f: retention.keep: 100000000000000000000 is not a whole number"},
		{map[string]any{"keep": []any{1}}, nil, "f: retention.keep: a list is not"},
		{map[string]any{"keep": 2.5}, nil, "f: retention.keep: 2.5 is not"},
		{map[string]any{"older_than": "soon"}, nil, "f: retention.older_than: soon is not an age"},
		{map[string]any{"older_than": "0s"}, nil, "f: retention.older_than: 0s is not an age"},
		{map[string]any{"older_than": 30}, nil, "f: retention.older_than: 30 is not an age"},
		{map[string]any{"kept": 3}, nil, `f: retention: unknown key "kept" (keys are keep, older_than)`},
		{map[string]any{}, nil, "f: retention: want a mapping"},
		{"30d", nil, "f: retention: want a mapping"},
	} {
		got, err := ReadRetention("f: ", tc.v)
		if tc.wantErr != "" {
			var re *RetentionError
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || !errors.As(err, &re) {
				t.Errorf("%v: got %v, want error %q", tc.v, err, tc.wantErr)
			}
			continue
		}
		if err != nil || (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%v: got %+v, %v; want %+v", tc.v, got, err, tc.want)
		}
	}
}

// TestRetentionStopsAtTheAgeLimit: retention reads the index from its
// oldest line up to the first written within the age limit, no further:
// a run whose line was written after that (long after its start) is
// left to a later pass, while runs prune, reading every run, removes it.
func TestRetentionStopsAtTheAgeLimit(t *testing.T) {
	s := Open(t.TempDir())
	month := 30 * 24 * time.Hour
	var old []string
	for i := range 3 {
		old = append(old, run.NewRunID(time.Now().Add(-2*month+time.Duration(i)*time.Minute)))
		copyIn(t, s, old[i], "c", "/p")
	}
	recent := run.NewRunID(time.Now().Add(-time.Hour))
	copyIn(t, s, recent, "c", "/p")
	s.List() // the index is made: one line a run, at its start
	late := run.NewRunID(time.Now().Add(-2 * month))
	s.appendEntry(entry{id: late, at: time.Now().UnixMilli(), name: "c", dir: "/p"})
	copyIn(t, s, late, "c", "/p")
	s.List() // runs/ changed: the index is rebuilt, keeping the late line
	s.SetRetention(&Retention{Keep: -1, OlderThan: month})
	just := drive(t, s)
	if got, _ := s.List(); !slices.Equal(ids(got), []string{just, recent, late}) {
		t.Errorf("left %v, want %v", ids(got), []string{just, recent, late})
	}
	if _, err := s.Prune(PruneRule{Keep: -1, OlderThan: month, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.List(); !slices.Equal(ids(got), []string{just, recent}) {
		t.Errorf("after runs prune: %v", ids(got))
	}
}
