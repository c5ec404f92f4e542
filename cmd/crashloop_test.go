package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/rogpeppe/go-internal/testscript"
)

// crashLoop (testscript: crashloop ROUNDS CHAIN MAXMS) runs CHAIN once
// untouched for the expected output, then ROUNDS times: starts it, kills
// chainrun with SIGKILL after a random 0..MAXMS ms, and resumes it to the
// end. Each round must end with the untouched run's output, and no step
// whose result was saved may run again (each step is saved once).
func crashLoop(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: crashloop ROUNDS CHAIN MAXMS")
	}
	rounds, err := strconv.Atoi(args[0])
	ts.Check(err)
	maxMS, err := strconv.Atoi(args[2])
	ts.Check(err)
	chainName := args[1]
	want := finalOutput(ts, chainrunCommand(ts, "run", chainName, "-q", "-o", "json"))
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	killedMidway := 0
	for round := range rounds {
		id, delay, killed := killedRun(ts, rng, maxMS, chainName)
		if killed {
			killedMidway++
		}
		got := finalOutput(ts, chainrunCommand(ts, "resume", id, "-q", "-o", "json"))
		if got != want {
			ts.Fatalf("round %d (seed %d, kill after %v): output %q, want %q", round, seed, delay, got, want)
		}
		checkSavedOnce(ts, id, round, seed)
	}
	if killedMidway < rounds/4 {
		// the chain finished before most kills: the test proved little
		ts.Fatalf("only %d of %d rounds were killed mid-run (seed %d): make the chain slower or MAXMS smaller", killedMidway, rounds, seed)
	}
	fmt.Fprintf(ts.Stdout(), "%d rounds, %d killed mid-run\n", rounds, killedMidway)
}

// killedRun starts `chainrun run NAME`, kills it with SIGKILL after a
// random 0..maxMS ms unless it ended before (killed says which), and
// returns the run's id. A run killed before it existed ran nothing: it
// is run anew, to its end.
func killedRun(ts *testscript.TestScript, rng *rand.Rand, maxMS int, name string) (id string, delay time.Duration, killed bool) {
	before := runIDs(ts)
	cmd := chainrunCommand(ts, "run", name, "-q")
	ts.Check(cmd.Start())
	delay = time.Duration(rng.IntN(maxMS+1)) * time.Millisecond
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(delay):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		killed = true
	}
	if id = newRunID(ts, before); id == "" {
		before = runIDs(ts)
		if out, err := chainrunCommand(ts, "run", name, "-q").CombinedOutput(); err != nil {
			ts.Fatalf("run %s: %v\n%s", name, err, out)
		}
		id = newRunID(ts, before)
	}
	return id, delay, killed
}

// finalOutput runs cmd (which prints a JSON result) and returns the
// output of a succeeded run.
func finalOutput(ts *testscript.TestScript, cmd *exec.Cmd) string {
	out, err := cmd.Output()
	if err != nil {
		ts.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	var res record.Result
	ts.Check(json.Unmarshal(out, &res))
	if res.Status != record.Succeeded {
		ts.Fatalf("%v: %s: %s", cmd.Args, res.Status, res.Error)
	}
	return fmt.Sprint(res.Output)
}

func stateDir(ts *testscript.TestScript) string {
	if dir := ts.Getenv("CHAINRUN_STATE_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(ts.Getenv("HOME"), ".local", "state", "chainrun")
}

func runIDs(ts *testscript.TestScript) map[string]bool {
	entries, _ := os.ReadDir(filepath.Join(stateDir(ts), "runs"))
	out := map[string]bool{}
	for _, e := range entries {
		out[e.Name()] = true
	}
	return out
}

// newRunID is the run directory that appeared since before, or "" when
// the run was killed before it was created.
func newRunID(ts *testscript.TestScript, before map[string]bool) string {
	for id := range runIDs(ts) {
		if !before[id] && id[0] != '.' {
			return id
		}
	}
	return ""
}

// checkSavedOnce reads a run's event log: every step was saved exactly
// once, so no step that had finished ran again after a crash.
func checkSavedOnce(ts *testscript.TestScript, id string, round int, seed uint64) {
	f, err := os.Open(filepath.Join(stateDir(ts), "runs", id, "events.jsonl"))
	ts.Check(err)
	defer f.Close()
	saved := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event.Event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue // a line torn by the kill
		}
		if e.Type == event.StepSaved {
			saved[e.Step]++
		}
	}
	for step, n := range saved {
		if n != 1 {
			ts.Fatalf("round %d (seed %d): step %s was saved %d times: it ran again after it had finished", round, seed, step, n)
		}
	}
}
