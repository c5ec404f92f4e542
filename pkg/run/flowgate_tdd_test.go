package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tddWalk starts mcp-flowgate's examples/tdd/gateway.yaml (commit
// 443aa7a, unchanged in testdata/flowgate) with a runner that answers
// each call with the next of results, {passed, count, output}, as
// tdd_example.rs's ScriptedRunner does (the file's cli executors run it
// with bash, the count command being the queue it reads).
func tddWalk(t *testing.T, results ...string) *fgWalk {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "flowgate", "tdd-gateway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runner, queue := filepath.Join(dir, "runner.sh"), filepath.Join(dir, "queue")
	script := "q=$2\nset -- $(head -n 1 \"$q\")\ntail -n +2 \"$q\" > \"$q.rest\" && mv \"$q.rest\" \"$q\"\n" +
		`printf '{"passed": %s, "count": %s, "output": "(scripted)"}\n' "$1" "$2"` + "\n[ \"$1\" = true ]\n"
	if err := os.WriteFile(runner, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(queue, []byte(strings.Join(results, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return startFgWalk(t, string(src), map[string]string{"test_cmd": "unused", "count_cmd": queue, "runner_path": runner})
}

// step takes transition and checks the state it leads to, and the
// context values want names (key=JSON).
func (w *fgWalk) step(take, state string, want ...string) {
	w.t.Helper()
	w.submit(take, nil)
	if w.err != nil || w.res.State != state {
		w.t.Fatalf("%s: want %s, got %v at %s: %s", take, state, w.err, w.res.State, w.res.Error)
	}
	for _, kv := range want {
		k, v, _ := strings.Cut(kv, "=")
		if got := w.context(k); got != v {
			w.t.Errorf("after %s: %s = %s, want %s", take, k, got, v)
		}
	}
}

// TestFlowgateTDDExample ports tdd_example.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/tdd_example.rs): its examples/tdd
// workflow driven by a scripted test runner, each case its sequence of
// runner results and the states (and counts) each submit reaches; a
// terminal state (done or cheated) completes the run. Its audit event
// transition.branched is chainrun's trace of the branch taken.
func TestFlowgateTDDExample(t *testing.T) {
	r := func(passed bool, count int) string { return fmt.Sprintf("%v %d", passed, count) }
	// each step: "transition -> state [key=value ...]"
	for _, tc := range []struct {
		name    string
		results []string
		steps   []string
		end     string // the terminal state the run completes at, if any
	}{
		{"happy_path_one_cycle_to_done", []string{r(true, 3), r(false, 4), r(true, 4)},
			[]string{"start_cycle -> red_pending baseline_count=3 session_baseline_count=3", "confirm_red -> red",
				"confirm_green -> green cycles_completed=1 baseline_count=4 session_baseline_count=3", "finish -> done"}, "done"},
		{"confirm_red_loops_when_count_didnt_strictly_increase", []string{r(true, 5), r(false, 5), r(false, 6)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red_pending last_count=5", "confirm_red -> red"}, ""},
		{"cheated_when_test_deleted_during_implementation_phase", []string{r(true, 3), r(false, 4), r(true, 3)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red", "confirm_green -> cheated"}, "cheated"},
		{"cheated_when_test_deleted_during_red_phase", []string{r(true, 5), r(false, 4)},
			[]string{"start_cycle -> red_pending", "confirm_red -> cheated"}, "cheated"},
		{"cheated_when_slow_cross_cycle_deletion_returns_below_session_baseline", []string{r(true, 10), r(false, 11), r(true, 11), r(false, 10)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red", "confirm_green -> green", "start_new_cycle -> red_pending", "confirm_red -> cheated"}, "cheated"},
		{"cheated_when_count_below_session_baseline_even_above_cycle_baseline", []string{r(true, 5), r(false, 4)},
			[]string{"start_cycle -> red_pending", "confirm_red -> cheated session_baseline_count=5 last_count=4"}, "cheated"},
		{"cheated_when_test_deleted_during_refactor", []string{r(true, 3), r(false, 4), r(true, 4), r(true, 3)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red", "confirm_green -> green", "start_refactor -> refactoring", "confirm_refactor -> cheated"}, "cheated"},
		{"red_pending_loops_when_tests_pass_unexpectedly", []string{r(true, 3), r(true, 3), r(false, 4), r(true, 4)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red_pending", "confirm_red -> red", "confirm_green -> green"}, ""},
		{"red_loops_when_implementation_doesnt_pass", []string{r(true, 3), r(false, 4), r(false, 4), r(true, 4)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red", "confirm_green -> red", "confirm_green -> green"}, ""},
		{"baseline_rolls_forward_so_each_cycle_must_add_a_test", []string{r(true, 3), r(false, 4), r(true, 4), r(false, 5), r(true, 5)},
			[]string{"start_cycle -> red_pending", "confirm_red -> red", "confirm_green -> green cycles_completed=1 baseline_count=4 session_baseline_count=3",
				"start_new_cycle -> red_pending baseline_count=4", "confirm_red -> red", "confirm_green -> green cycles_completed=2 baseline_count=5 session_baseline_count=3"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tddWalk(t, tc.results...)
			for _, st := range tc.steps {
				take, rest, _ := strings.Cut(st, " -> ")
				fields := strings.Fields(rest)
				w.step(take, fields[0], fields[1:]...)
			}
			if tc.end != "" {
				w.completed(tc.end)
			}
		})
	}
}
