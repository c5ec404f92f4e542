package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// saveRuns makes one finished run per id, of the chain and status given.
func saveRuns(t *testing.T, s *Store, runs [][3]string) {
	t.Helper()
	for _, r := range runs {
		saveRun(t, s, Record{RunID: r[0], Name: r[1], StartedAt: r[0][:15]}, event.Status(r[2]))
	}
}

// saveRun makes one finished run of the record and status given.
func saveRun(t *testing.T, s *Store, r Record, status event.Status) {
	t.Helper()
	rec, err := s.Create(r, []byte("name: "+r.Name+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Finish(&record.Result{RunID: r.RunID, Status: status}); err != nil {
		t.Fatal(err)
	}
	rec.Close()
}

// TestResolveRunReferences: last, a whole id, a unique prefix or suffix;
// an ambiguous part lists its runs, an unknown one is not found.
func TestResolveRunReferences(t *testing.T) {
	s := Open(t.TempDir())
	saveRuns(t, s, [][3]string{
		{"20261123-210000-001-5b92b7", "deploy", "paused"},
		{"20261123-220000-002-a1c3d4", "release", "failed"},
		{"20261124-090000-003-a1ffff", "deploy", "succeeded"},
	})
	cases := []struct{ ref, want, err string }{
		{"last", "20261124-090000-003-a1ffff", ""},
		{"20261123-220000-002-a1c3d4", "20261123-220000-002-a1c3d4", ""},
		{"5b92b7", "20261123-210000-001-5b92b7", ""},      // the suffix a pause printed
		{"20261124", "20261124-090000-003-a1ffff", ""},    // the day it started
		{"20261123-22", "20261123-220000-002-a1c3d4", ""}, // a prefix
		{"20261123", "", `"20261123" matches 2 runs; give more of the id:`},
		{"zz", "", "no run \"zz\""},
		{"", "", "no run \"\""},
		{"../x", "", "no run"},
	}
	for _, c := range cases {
		got, err := s.Resolve(c.ref)
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.ref, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Resolve(%q) = %q, %v; want an error with %q", c.ref, got, err, c.err)
		}
	}
	_, err := s.Resolve("20261123")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || !amb.NothingRan() || !strings.Contains(err.Error(), "20261123-210000-001-5b92b7  deploy  paused") {
		t.Errorf("an ambiguous reference does not list its runs: %v", err)
	}
	if _, err := Open(t.TempDir()).Resolve("last"); !errors.As(err, new(*NotFoundError)) {
		t.Errorf("last of no run: %v", err)
	}
}

// TestFilterRuns picks runs by chain and status, the newest first, and
// refuses a status no run has.
func TestFilterRuns(t *testing.T) {
	s := Open(t.TempDir())
	saveRuns(t, s, [][3]string{
		{"20261123-210000-001-000001", "deploy", "paused"},
		{"20261123-210000-002-000002", "release", "failed"},
		{"20261123-210000-003-000003", "deploy", "failed"},
		{"20261123-210000-004-000004", "deploy", "succeeded"},
	})
	recs, _ := s.List()
	ids := func(rs []Record) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.RunID[len(r.RunID)-1:])
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		chain    string
		statuses []string
		limit    int
		want     string
	}{
		{"", nil, 0, "4,3,2,1"},
		{"", nil, 2, "4,3"},
		{"deploy", nil, 0, "4,3,1"},
		{"", []string{"failed"}, 0, "3,2"},
		{"deploy", []string{"paused", "failed"}, 1, "3"},
		{"nothing", nil, 0, ""},
	}
	for _, c := range cases {
		f, err := NewFilter(c.chain, c.statuses, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(f.Apply(recs)); got != c.want {
			t.Errorf("%+v: got %s, want %s", c, got, c.want)
		}
	}
	if _, err := NewFilter("", []string{"done"}, 0); err == nil || !strings.Contains(err.Error(), "--status done: a run's status is one of running, succeeded") {
		t.Errorf("an unknown status: %v", err)
	}
	if _, err := NewFilter("", nil, -1); err == nil {
		t.Error("a negative limit is accepted")
	}
}
