package cmd

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// runsCrash (testscript: runscrash ROUNDS CHAIN MAXUS) starts CHAIN twice
// at once, ROUNDS times, killing each process with SIGKILL after a random
// 0..MAXUS µs, or up to 1.5 times a whole run of CHAIN timed first when
// this machine is slower than that (unless it ended before): kills land
// before the run exists,
// between its line in the runs index and its directory, after both, and
// mid-run. Then every run directory left must be listed by `runs --all`,
// be `runs show last` when it is the newest, be found by the end of its
// id, and the newest be offered by completion.
func runsCrash(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: runscrash ROUNDS CHAIN MAXUS")
	}
	rounds, err := strconv.Atoi(args[0])
	ts.Check(err)
	maxUS, err := strconv.Atoi(args[2])
	ts.Check(err)
	// one run to its end first: how long a whole start takes on this
	// machine (a race-detector build starts several times slower), so
	// the kill points span all of it however slow the machine is
	began := time.Now()
	ts.Check(chainrunCommand(ts, "run", args[1], "-q").Run())
	if whole := int(time.Since(began).Microseconds()) * 3 / 2; whole > maxUS {
		maxUS = whole
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 2))
	killed := 0
	for range rounds {
		var waits []chan error
		for range 2 {
			cmd := chainrunCommand(ts, "run", args[1], "-q")
			ts.Check(cmd.Start())
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			waits = append(waits, done)
			delay := time.Duration(rng.IntN(maxUS+1)) * time.Microsecond
			go func() {
				time.Sleep(delay)
				_ = cmd.Process.Signal(syscall.SIGKILL)
			}()
		}
		for _, w := range waits {
			if err := <-w; err != nil {
				killed++
			}
		}
	}
	var saved []string // every run directory with a record: the truth
	entries, _ := os.ReadDir(filepath.Join(stateDir(ts), "runs"))
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(stateDir(ts), "runs", e.Name(), "run.json")); err == nil && e.Name()[0] != '.' {
			saved = append(saved, e.Name())
		}
	}
	if len(saved) == 0 {
		ts.Fatalf("no run was saved (seed %d)", seed)
	}
	slices.Sort(saved)
	out, err := chainrunCommand(ts, "runs", "--all", "-o", "json").Output()
	ts.Check(err)
	var listed []struct {
		RunID string `json:"run_id"`
	}
	ts.Check(json.Unmarshal(out, &listed))
	var got []string
	for _, l := range listed {
		got = append(got, l.RunID)
	}
	slices.Sort(got)
	if !slices.Equal(got, saved) {
		ts.Fatalf("seed %d: runs lists %v, runs/ holds %v", seed, got, saved)
	}
	newest := saved[len(saved)-1]
	for _, ref := range []string{"last", newest[len(newest)-6:]} {
		if id := shownID(ts, ref); id != newest {
			ts.Fatalf("seed %d: runs show %s is %s, want %s", seed, ref, id, newest)
		}
	}
	for _, id := range saved {
		if got := shownID(ts, id[len(id)-6:]); got != id {
			ts.Fatalf("seed %d: the end of %s names %s", seed, id, got)
		}
	}
	out, err = chainrunCommand(ts, "__complete", "runs", "show", "").Output()
	ts.Check(err)
	if !strings.Contains(string(out), "last\t"+newest+" ") {
		ts.Fatalf("seed %d: completion does not offer %s as last:\n%s", seed, newest, out)
	}
	fmt.Fprintf(ts.Stdout(), "%d runs saved, %d processes killed\n", len(saved), killed)
}

// shownID is the run_id `runs show REF -o json` prints.
func shownID(ts *testscript.TestScript, ref string) string {
	out, err := chainrunCommand(ts, "runs", "show", ref, "--all", "-o", "json").Output()
	if err != nil {
		ts.Fatalf("runs show %s: %v\n%s", ref, err, out)
	}
	var res struct {
		RunID string `json:"run_id"`
	}
	ts.Check(json.Unmarshal(out, &res))
	return res.RunID
}
