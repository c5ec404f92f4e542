package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
)

// saveRunsIn makes one finished run per id, started in the directory
// given ("" for a run saved before runs recorded it).
func saveRunsIn(t *testing.T, s *Store, runs [][2]string) {
	t.Helper()
	for _, r := range runs {
		saveRun(t, s, Record{RunID: r[0], Name: "c", StartedAt: r[0][:15], Dir: r[1]}, event.Status("failed"))
	}
}

// "last" and listings of a project are its runs: those started in its
// directory or below, never a run of a directory that only begins the
// same way; "" is every project.
func TestRunsOfAProject(t *testing.T) {
	root := t.TempDir()
	proj, other := filepath.Join(root, "proj"), filepath.Join(root, "proj-two")
	s := Open(t.TempDir())
	saveRunsIn(t, s, [][2]string{
		{"20261123-210000-001-aaaaaa", proj},
		{"20261123-210000-002-bbbbbb", filepath.Join(proj, "sub", "deeper")},
		{"20261123-210000-003-cccccc", other},
		{"20261123-210000-004-dddddd", ""},
		{"20261123-210000-005-eeeeee", root},
	})
	for _, tc := range []struct{ under, last, listed string }{
		{proj, "20261123-210000-002-bbbbbb", "bbbbbb aaaaaa"},
		{filepath.Join(proj, "sub"), "20261123-210000-002-bbbbbb", "bbbbbb"},
		{other, "20261123-210000-003-cccccc", "cccccc"},
		{"", "20261123-210000-005-eeeeee", "eeeeee dddddd cccccc bbbbbb aaaaaa"},
	} {
		got, err := s.ResolveUnder(Last, tc.under)
		if err != nil || got != tc.last {
			t.Errorf("last under %s = %q, %v; want %s", tc.under, got, err, tc.last)
		}
		recs, _ := s.List()
		var ids []string
		for _, r := range (Filter{Under: tc.under}).Apply(recs) {
			ids = append(ids, r.RunID[len(r.RunID)-6:])
		}
		if strings.Join(ids, " ") != tc.listed {
			t.Errorf("listed under %s: %q, want %q", tc.under, ids, tc.listed)
		}
	}
	// a whole id or a part of one names a run of any project
	if got, err := s.ResolveUnder("cccccc", proj); err != nil || got != "20261123-210000-003-cccccc" {
		t.Errorf("a part of an id under another project: %q %v", got, err)
	}
	_, err := s.ResolveUnder(Last, filepath.Join(root, "empty"))
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "no run started in "+filepath.Join(root, "empty")) || !strings.Contains(err.Error(), "--all") {
		t.Errorf("last of a project without runs: %v", err)
	}
}
