package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/gofrs/flock"
)

// saveIndexed creates a finished run of id, started in dir.
func saveIndexed(t testing.TB, s *Store, id, name, dir string) {
	t.Helper()
	r, err := s.Create(Record{RunID: id, Name: name, Dir: dir, StartedAt: runStart(id)}, []byte("name: "+name+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(&record.Result{RunID: id, Status: record.Succeeded}); err != nil {
		t.Fatal(err)
	}
	r.Close()
}

// copyIn puts a run's directory in runs/ as a copy by hand would: no
// line in the index.
func copyIn(t testing.TB, s *Store, id, name, dir string) {
	t.Helper()
	d := s.runDir(id)
	data, _ := json.Marshal(Record{RunID: id, Name: name, Dir: dir, Status: record.Succeeded, StartedAt: runStart(id)})
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "run.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// truth is every saved run, newest first, read from runs/ alone.
func truth(t testing.TB, s *Store) []string {
	t.Helper()
	recs, err := s.scan()
	if err != nil {
		t.Fatal(err)
	}
	return ids(recs)
}

// id is the i-th run id of a test: the larger i, the later it started.
func testID(i int) string {
	return fmt.Sprintf("20261101-%06d-%03d-%06x", i/1000, i%1000, i*7919%0xffffff)
}

// TestIndexListsAsAScan: the index gives the runs in the order a read of
// every run gives, whatever order they were created in; a limit, a
// project, a chain and a prefix pick the same runs as filtering the
// whole listing.
func TestIndexListsAsAScan(t *testing.T) {
	s := Open(t.TempDir())
	order := []int{3, 1, 2, 7, 5, 4, 6, 9, 8, 10, 1500, 1200, 2000}
	for _, i := range order {
		dir := "/p/a"
		if i%3 == 0 {
			dir = "/p/b"
		}
		saveIndexed(t, s, testID(i), fmt.Sprintf("c%d", i%2), dir)
	}
	want := truth(t, s)
	got, err := s.List()
	if err != nil || !slices.Equal(ids(got), want) {
		t.Fatalf("List = %v (%v), want %v", ids(got), err, want)
	}
	all := got
	for _, f := range []Filter{
		{Limit: 3}, {Under: "/p/b"}, {Under: "/p/a", Limit: 2}, {Chain: "c1"},
		{Chain: "c0", Under: "/p/b", Limit: 1}, {Prefix: "20261101-000001"}, {Prefix: "none"},
	} {
		got, err := s.Newest(f)
		if want := ids(f.Apply(all)); err != nil || !slices.Equal(ids(got), want) {
			t.Errorf("%+v: %v (%v), want %v", f, ids(got), err, want)
		}
	}
	if last, err := s.Resolve(Last); err != nil || last != testID(2000) {
		t.Errorf("last = %s, %v", last, err)
	}
	if !s.fresh() {
		t.Error("the index is not trusted after runs chainrun made")
	}
}

// TestIndexNeverHidesARun: whatever happened to the index or to runs/
// behind chainrun's back, every run there is listed, is "last" when it
// is the newest, and is found by the end of its id; no run that is gone
// is listed.
func TestIndexNeverHidesARun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, s *Store)
	}{
		{"index removed", func(t *testing.T, s *Store) { os.Remove(s.indexPath()) }},
		{"stamp removed", func(t *testing.T, s *Store) { os.Remove(filepath.Join(s.Dir(), stampFile)) }},
		{"a run copied in", func(t *testing.T, s *Store) { copyIn(t, s, testID(900), "copied", "/p") }},
		{"an older run copied in", func(t *testing.T, s *Store) { copyIn(t, s, testID(0), "copied", "/p") }},
		{"a run removed by hand", func(t *testing.T, s *Store) { os.RemoveAll(s.runDir(testID(50))) }},
		{"a garbled line", func(t *testing.T, s *Store) { appendRaw(t, s, "not a line\n") }},
		{"a line cut short", func(t *testing.T, s *Store) { appendRaw(t, s, testID(60)+" 17") }},
		{"a header not ours", func(t *testing.T, s *Store) {
			data, _ := os.ReadFile(s.indexPath())
			os.WriteFile(s.indexPath(), append([]byte("something else\n"), data[len(indexHeader)+1:]...), 0o600)
		}},
		{"the index emptied", func(t *testing.T, s *Store) { os.WriteFile(s.indexPath(), nil, 0o600) }},
		{"killed after its line, before its directory", func(t *testing.T, s *Store) {
			s.appendEntry(entry{id: testID(950), at: 1 << 50, dir: "/p"})
		}},
		{"killed after its directory, before the stamp", func(t *testing.T, s *Store) {
			s.appendEntry(entry{id: testID(960), at: 1 << 50, dir: "/p"})
			copyIn(t, s, testID(960), "late", "/p")
		}},
		{"a directory in runs/ that is not a run", func(t *testing.T, s *Store) { os.MkdirAll(s.runDir(testID(970)), 0o700) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir())
			for i := 10; i <= 100; i += 10 {
				saveIndexed(t, s, testID(i), "c", "/p")
			}
			tc.damage(t, s)
			want := truth(t, s)
			got, err := s.List()
			if err != nil || !slices.Equal(ids(got), want) {
				t.Fatalf("List = %v (%v), want %v", ids(got), err, want)
			}
			if last, err := s.ResolveUnder(Last, "/p"); err != nil || last != want[0] {
				t.Errorf("last = %q (%v), want %s", last, err, want[0])
			}
			for _, id := range want {
				if got, err := s.Resolve(id[len(id)-6:]); err != nil || got != id {
					t.Errorf("the end of %s names %q (%v)", id, got, err)
				}
			}
			if !s.fresh() {
				t.Error("the index was not rebuilt")
			}
			if again, _ := s.List(); !slices.Equal(ids(again), want) {
				t.Errorf("rebuilt, it lists %v, want %v", ids(again), want)
			}
		})
	}
}

func appendRaw(t *testing.T, s *Store, text string) {
	t.Helper()
	f, err := os.OpenFile(s.indexPath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(text)
	f.Close()
}

// TestIndexBypassedWhileLocked: a reader that finds the index untrusted
// while another process holds its lock reads runs/ itself.
func TestIndexBypassedWhileLocked(t *testing.T) {
	s := Open(t.TempDir())
	for i := 1; i <= 5; i++ {
		saveIndexed(t, s, testID(i), "c", "/p")
	}
	copyIn(t, s, testID(9), "copied", "/p")
	l := flock.New(filepath.Join(s.Dir(), stampFile))
	if ok, err := l.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer l.Unlock()
	if got, _ := s.Newest(Filter{Limit: 1}); len(got) != 1 || got[0].RunID != testID(9) {
		t.Errorf("newest = %v, want %s", ids(got), testID(9))
	}
	if s.fresh() {
		t.Error("the index was trusted although a run is not in it")
	}
}

// TestConcurrentCreatesKeepTheIndexWhole: runs created at once from many
// writers are each in the index once, and the index stays trusted.
func TestConcurrentCreatesKeepTheIndexWhole(t *testing.T) {
	s := Open(t.TempDir())
	saveIndexed(t, s, testID(1), "c", "/p")
	s.List() // the first run found no index: a reader makes it
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 10 {
				saveIndexed(t, Open(s.Dir()), testID(100+w*10+i), "c", "/p")
			}
		})
	}
	wg.Wait()
	if !s.fresh() {
		t.Error("the index is not trusted after concurrent runs")
	}
	entries, err := s.readIndex()
	if err != nil || len(entries) != 81 {
		t.Fatalf("%d lines, %v", len(entries), err)
	}
	if got, _ := s.List(); !slices.Equal(ids(got), truth(t, s)) || len(got) != 81 {
		t.Errorf("listed %d runs", len(got))
	}
}

// TestRunsStreams: a listing yields the newest run before it reads the
// oldest (a run removed meanwhile is not listed).
func TestRunsStreams(t *testing.T) {
	s := Open(t.TempDir())
	var made []string
	for range 300 {
		// ids of their real start: each run starts after the one before
		// it was written
		time.Sleep(2 * time.Millisecond)
		made = append(made, run.NewRunID(time.Now()))
		saveIndexed(t, s, made[len(made)-1], "c", "/p")
	}
	var got []string
	err := s.Runs(Filter{}, func(r Record) bool {
		if len(got) == 0 {
			os.RemoveAll(s.runDir(made[0]))
		}
		got = append(got, r.RunID)
		return true
	})
	if err != nil || len(got) != 299 || got[0] != made[299] || slices.Contains(got, made[0]) {
		t.Errorf("%d runs, first %s, %v", len(got), got[0], err)
	}
}

// TestPruneKeepsTheIndexTrusted: runs removed by chainrun leave the
// index trusted, and their lines are dropped from it.
func TestPruneKeepsTheIndexTrusted(t *testing.T) {
	s := Open(t.TempDir())
	for i := 1; i <= 6; i++ {
		saveIndexed(t, s, testID(i), "c", "/p")
	}
	if _, err := s.Prune(PruneRule{Keep: 2, OlderThan: 0}); err != nil {
		t.Fatal(err)
	}
	if !s.fresh() {
		t.Error("the index is not trusted after a prune")
	}
	if entries, err := s.readIndex(); err != nil || len(entries) != 2 {
		t.Errorf("the index keeps %d lines after the prune (%v), want the 2 runs left", len(entries), err)
	}
	if got, _ := s.List(); !slices.Equal(ids(got), []string{testID(6), testID(5)}) {
		t.Errorf("listed %v", ids(got))
	}
	if _, err := s.Resolve(testID(2)[20:]); err == nil || !strings.Contains(err.Error(), "no run") {
		t.Errorf("a removed run is still found: %v", err)
	}
}

// TestChoicesReadTheNewestRuns: completion offers what the newest runs
// hold, reading at most maxChoiceReads records at any number of runs.
func TestChoicesReadTheNewestRuns(t *testing.T) {
	s := Open(t.TempDir())
	failed := func(id string) {
		r, err := s.Create(Record{RunID: id, Name: "c", Dir: "/p", StartedAt: runStart(id)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Finish(&record.Result{RunID: id, Status: record.Failed})
		r.Close()
	}
	failed(testID(1))
	for i := 2; i < maxChoiceReads+2; i++ {
		saveIndexed(t, s, testID(i), "c", "/p")
	}
	if got, _ := s.Newest(ChoiceFilter("/p", "", true)); len(got) != 0 {
		t.Errorf("offered %v from beyond the newest %d runs", ids(got), maxChoiceReads)
	}
	failed(testID(5000))
	if got, _ := s.Newest(ChoiceFilter("/p", "", true)); !slices.Equal(ids(got), []string{testID(5000)}) {
		t.Errorf("offered %v", ids(got))
	}
	if got, _ := s.Newest(ChoiceFilter("/p", "la", false)); len(got) != maxChoices || got[0].RunID != testID(5000) {
		t.Errorf("typing la (of last) offered %d runs", len(got))
	}
	if got, _ := s.Newest(ChoiceFilter("/p", testID(1)[:19], false)); !slices.Equal(ids(got), []string{testID(1)}) {
		t.Errorf("a typed prefix offered %v", ids(got))
	}
}

// TestFewerLines: retention's first look, whether the index holds no
// more runs than it keeps, answers by the file's size when it can and
// never says fewer when there are more.
func TestFewerLines(t *testing.T) {
	s := Open(t.TempDir())
	if s.fewerLines(5) {
		t.Error("no index reads as fewer lines")
	}
	for i := range 40 {
		saveIndexed(t, s, testID(i), "c", "/a/long/enough/directory/of/a/project")
	}
	for n, want := range map[int]bool{0: false, 39: false, 40: true, 41: true, 4000: true} {
		if got := s.fewerLines(n); got != want {
			t.Errorf("at most %d lines: %v, want %v", n, got, want)
		}
	}
}
