package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/rogpeppe/go-internal/testscript"
)

// effectsLog is where the steps of a crashonce workflow that are not
// idempotent write one line each, their id, as their effect.
const effectsLog = "effects.log"

// crashOnce (testscript: crashonce ROUNDS WORKFLOW MAXMS) runs WORKFLOW
// once untouched for its final context and the effects its non-idempotent
// steps leave in effects.log (one line each, the step's id), then ROUNDS
// times: starts it, kills chainrun with SIGKILL after a random 0..MAXMS
// ms, and resumes it to the end, confirming with the printed command each
// step resume asks --rerun for. Each round must end with the untouched
// run's context and effects, and no step's effect may be there more
// often than once plus the times resume asked to rerun it: a finished
// non-idempotent step (a parallel's branch, a pipeline's step, a called
// workflow's) never runs again unconfirmed.
func crashOnce(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: crashonce ROUNDS WORKFLOW MAXMS")
	}
	rounds, err := strconv.Atoi(args[0])
	ts.Check(err)
	maxMS, err := strconv.Atoi(args[2])
	ts.Check(err)
	name := args[1]
	log := ts.MkAbs(effectsLog)
	os.Remove(log)
	want := finalContext(ts, chainrunCommand(ts, "run", name, "-q", "-o", "json"))
	wantEffects := effectsIn(ts, log)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 2))
	killedMidway, confirmed := 0, 0
	for round := range rounds {
		os.Remove(log)
		id, delay, killed := killedRun(ts, rng, maxMS, name)
		if killed {
			killedMidway++
		}
		where := fmt.Sprintf("round %d (seed %d, kill after %v)", round, seed, delay)
		reruns := map[string]int{}
		got := resumeToEnd(ts, id, reruns, where)
		confirmed += len(reruns)
		if got != want {
			ts.Fatalf("%s: context %s, want %s", where, got, want)
		}
		effects := effectsIn(ts, log)
		for step, n := range effects {
			if wantEffects[step] == 0 {
				ts.Fatalf("%s: %s ran, which the untouched run did not run", where, step)
			}
			if n > 1+reruns[step] {
				ts.Fatalf("%s: %s ran %d times, confirmed %d times (%v): a finished step ran again", where, step, n, reruns[step], reruns)
			}
		}
		for step := range wantEffects {
			if effects[step] == 0 {
				ts.Fatalf("%s: %s never ran", where, step)
			}
		}
	}
	if killedMidway < rounds/2 {
		ts.Fatalf("only %d of %d rounds were killed mid-run (seed %d): make the workflow slower or MAXMS smaller", killedMidway, rounds, seed)
	}
	fmt.Fprintf(ts.Stdout(), "%d rounds, %d killed mid-run, %d confirmed\n", rounds, killedMidway, confirmed)
}

// rerunAsked is the command a refused resume prints to confirm the steps
// it names.
var rerunAsked = regexp.MustCompile(`step (.+) is not idempotent .* resume with: (chainrun resume .*)`)

// resumeToEnd resumes run id until it succeeds, running the command a
// refusal prints when resume asks for --rerun (counted in reruns by
// step), and returns the final context.
func resumeToEnd(ts *testscript.TestScript, id string, reruns map[string]int, where string) string {
	args := []string{"resume", id}
	for range 8 {
		cmd := chainrunCommand(ts, append(args, "-q", "-o", "json")...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 2 {
			m := rerunAsked.FindStringSubmatch(stderr.String())
			if m == nil {
				ts.Fatalf("%s: resume %v refused: %s", where, args, stderr.String())
			}
			for _, step := range strings.Split(m[1], ", ") {
				reruns[step]++
			}
			args = shellWords(m[2])[1:]
			continue
		}
		if err != nil {
			ts.Fatalf("%s: resume %v: %v\n%s", where, args, err, stderr.String())
		}
		return contextOf(ts, out)
	}
	ts.Fatalf("%s: run %s did not finish in 8 resumes", where, id)
	return ""
}

// finalContext runs cmd (which prints a workflow's JSON result) and
// returns the final context of a succeeded run.
func finalContext(ts *testscript.TestScript, cmd *exec.Cmd) string {
	out, err := cmd.Output()
	if err != nil {
		ts.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	return contextOf(ts, out)
}

func contextOf(ts *testscript.TestScript, out []byte) string {
	var res record.Result
	ts.Check(json.Unmarshal(out, &res))
	if res.Status != record.Succeeded || res.WorkflowResult == nil {
		ts.Fatalf("%s: %s", res.Status, res.Error)
	}
	b, err := json.Marshal(res.Context)
	ts.Check(err)
	return string(b)
}

// effectsIn counts the lines of the effects log.
func effectsIn(ts *testscript.TestScript, path string) map[string]int {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		ts.Fatalf("%v", err)
	}
	out := map[string]int{}
	for line := range strings.Lines(string(data)) {
		out[strings.TrimSpace(line)]++
	}
	return out
}

// shellWords splits a command chainrun printed for a POSIX shell: words
// apart by spaces, single-quoted where they need it.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	quoted, in := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
			}
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
