package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Last is the run reference that names the newest run of the store.
const Last = "last"

// AmbiguousError is a run reference that more than one run matches.
type AmbiguousError struct {
	Ref     string
	Matches []Record
}

// maxListed is how many of the runs an ambiguous reference matches its
// error lists.
const maxListed = 10

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q matches %d runs; give more of the id:", e.Ref, len(e.Matches))
	for _, r := range e.Matches[:min(len(e.Matches), maxListed)] {
		fmt.Fprintf(&b, "\n  %s  %s  %s", r.RunID, r.Name, r.Status)
	}
	if more := len(e.Matches) - maxListed; more > 0 {
		fmt.Fprintf(&b, "\n  … and %d more (%s runs lists them)", more, response.Command())
	}
	return b.String()
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *AmbiguousError) NothingRan() bool { return true }

// Resolve is the run id a reference names, so that nobody types 26
// characters: "last" (the newest run), a whole id, or a part of one that
// only one run's id begins or ends with (the random suffix a pause
// printed, the time it started). A reference no run matches is a
// NotFoundError, one that several match an AmbiguousError listing them.
func (s *Store) Resolve(ref string) (string, error) { return s.ResolveUnder(ref, "") }

// ResolveUnder is Resolve with "last" the newest run started in the
// directory under or below it (a project's runs; "" for every run). A
// whole id, or a part of one, names a run wherever it started.
func (s *Store) ResolveUnder(ref, under string) (string, error) {
	if ref != Last && validID(ref) && s.exists(ref) {
		return ref, nil // the common case reads no other run
	}
	if ref == Last {
		var newest []Record
		err := s.Runs(Filter{Under: under, Limit: 1}, func(r Record) bool {
			newest = append(newest, r)
			return false
		})
		if err != nil {
			return "", err
		}
		if len(newest) == 0 {
			return "", &NotFoundError{RunID: ref, Dir: s.dir, Under: under}
		}
		return newest[0].RunID, nil
	}
	matches, err := s.matching(ref)
	if err != nil {
		return "", err
	}
	switch len(matches) {
	case 0:
		return "", &NotFoundError{RunID: ref, Dir: s.dir}
	case 1:
		return matches[0].RunID, nil
	}
	return "", &AmbiguousError{Ref: ref, Matches: matches}
}

// matching are the saved runs whose id begins or ends with ref, newest
// first. Only the index's ids are read, and the records of the runs they
// match; without an index to trust, every run's.
func (s *Store) matching(ref string) ([]Record, error) {
	match := func(id string) bool { return strings.HasPrefix(id, ref) || strings.HasSuffix(id, ref) }
	if ref == "" {
		return nil, nil
	}
	var ids []string
	b := []byte(ref)
	if !s.trusted() || s.indexIDs(func(id []byte) {
		if (bytes.HasPrefix(id, b) || bytes.HasSuffix(id, b)) && validID(string(id)) { // no string a line
			ids = append(ids, string(id))
		}
	}) != nil {
		recs, err := s.List()
		var out []Record
		for _, r := range recs {
			if match(r.RunID) {
				out = append(out, r)
			}
		}
		return out, err
	}
	var out []Record
	seen := map[string]bool{}
	for _, id := range ids {
		if rec, ok := s.record(id); ok && !seen[id] {
			seen[id] = true
			out = append(out, rec)
		}
	}
	slices.SortStableFunc(out, func(a, b Record) int {
		if newer(dated{rec: a}, dated{rec: b}) {
			return -1
		}
		if newer(dated{rec: b}, dated{rec: a}) {
			return 1
		}
		return 0
	})
	return out, nil
}

// exists reports whether a run of that id is saved.
func (s *Store) exists(id string) bool {
	_, err := os.Stat(filepath.Join(s.runDir(id), "run.json"))
	return err == nil
}

// RunStatuses are the statuses a saved run can have, as runs lists them.
var RunStatuses = []event.Status{event.Running, event.Succeeded, event.Failed, event.Paused, event.Interrupted, event.Cancelled, event.Corrupt}

// Resumable reports whether resume has something to do for a run of that
// status: it paused, failed or was interrupted.
func Resumable(st event.Status) bool {
	return st == record.Paused || st == record.Failed || st == record.Interrupted
}

// Filter picks saved runs for a listing: of one chain, of some statuses,
// started in the directory Under or below it (a project's), the newest
// Limit of them. Its zero value picks every run.
type Filter struct {
	Chain    string
	Statuses []event.Status
	Limit    int
	Under    string
	// Prefix is how the ids picked begin (what completion was given).
	Prefix string
	// reads bounds how many runs' records are read (0: no bound):
	// completion offers what the newest runs hold, at any number of runs.
	reads int
}

// maxChoices is how many runs completion offers: the newest that match
// what was typed, among the newest maxChoiceReads it reads, so that
// completing costs the same at any number of saved runs.
const (
	maxChoices     = 50
	maxChoiceReads = 50
)

// ChoiceFilter picks the runs completion offers for typed: the newest
// runs of the directory under, resumable ones only when asked, whose id
// begins with typed (any id while typed may still become "last").
func ChoiceFilter(under, typed string, resumable bool) Filter {
	f := Filter{Under: under, Limit: maxChoices, reads: maxChoiceReads}
	if !strings.HasPrefix(Last, typed) {
		f.Prefix = typed
	}
	if resumable {
		f.Statuses = []event.Status{record.Paused, record.Failed, record.Interrupted}
	}
	return f
}

// NewFilter checks a listing's choices: a status must be one a run can
// have and a limit cannot be negative.
func NewFilter(chain string, statuses []string, limit int) (Filter, error) {
	f := Filter{Chain: chain, Limit: limit}
	if limit < 0 {
		return f, &FilterError{fmt.Sprintf("--limit %d: want 0 (no limit) or more", limit)}
	}
	for _, s := range statuses {
		st := event.Status(strings.TrimSpace(s))
		if !slices.Contains(RunStatuses, st) {
			return f, &FilterError{fmt.Sprintf("--status %s: a run's status is one of %s", s, statusList())}
		}
		f.Statuses = append(f.Statuses, st)
	}
	return f, nil
}

// Apply keeps the records the filter picks, in their order.
func (f Filter) Apply(recs []Record) []Record {
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
		if f.picks(r) {
			out = append(out, r)
		}
	}
	return out
}

// FilterError is a listing's choice that cannot pick anything: exit 2.
type FilterError struct{ Msg string }

func (e *FilterError) Error() string { return e.Msg }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *FilterError) NothingRan() bool { return true }

func statusList() string {
	names := make([]string, len(RunStatuses))
	for i, s := range RunStatuses {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// within reports whether a run started in dir is one of the runs under
// root: dir is root or below it ("" root: every run). A run saved before
// runs recorded their directory is of no project.
func within(dir, root string) bool {
	if root == "" {
		return true
	}
	if dir == "" {
		return false
	}
	return under(dir, root) || under(dir, realDir(root))
}

// under reports whether dir is root or below it, by their text.
func under(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// realDirs memoizes realDir: a listing asks of one root for every run.
var realDirs sync.Map

// realDir is dir with its symbolic links resolved (dir itself when it
// cannot be): a run records the directory it started in so, and a
// project reached through a link is matched by it too, so that a run
// started through /link/proj is one of /real/proj's runs and the other
// way round.
func realDir(dir string) string {
	if v, ok := realDirs.Load(dir); ok {
		return v.(string)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	realDirs.Store(dir, real)
	return real
}
