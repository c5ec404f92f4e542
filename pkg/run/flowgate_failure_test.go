package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// The cases below port mcp-flowgate's failure paths
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a):
// crates/mcp-flowgate-executors/tests/workflow_failure_paths.rs and
// crates/mcp-flowgate-core/tests/baseline_scenarios.rs; each names its
// test.

// TestFlowgateExecutorFailureStaysAtItsState ports
// workflow_failure_paths.rs permanent_executor_failure_does_not_report_completed:
// a deterministic transition whose executor fails permanently does not
// report completed; the run is failed at the state it left ("ready", not
// its target), and (reference 000, "When a step fails") offers a link to
// retry the transition.
func TestFlowgateExecutorFailureStaysAtItsState(t *testing.T) {
	for name, exec := range map[string]string{
		"a command that exits 1":      `{kind: cli, command: sh, args: ["-c", "echo test-induced permanent failure >&2; exit 1"]}`,
		"a program that is not there": `{kind: cli, command: no-such-program-here}`,
		"a transform that cannot run": `{kind: transform, expr: 'int("not a number")'}`,
	} {
		t.Run(name, func(t *testing.T) {
			src := `version: '1'
workflows:
  test.fail:
    initialState: ready
    states:
      ready:
        transitions:
          go: {target: done, actor: deterministic, executor: ` + exec + `}
      done: {terminal: true}
      failed: {terminal: true}
`
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src)})
			if err != nil {
				t.Fatalf("start propagated an error: %v", err)
			}
			if res.Status != record.Failed || res.State != "ready" || res.Error == "" {
				t.Fatalf("%s at %s: %q", res.Status, res.State, res.Error)
			}
			if len(res.Links) != 1 || res.Links[0].Transition != "go" || !strings.HasPrefix(res.Links[0].Title, "Retry") {
				t.Errorf("links %+v", res.Links)
			}
		})
	}
}

// TestFlowgateGuardFailureOnSubmitBlocksAdvance ports
// workflow_failure_paths.rs guard_failure_on_submit_blocks_advance and
// baseline_scenarios.rs b04_guard_rejection_audited_and_recoverable and
// b03_schema_rejection_returns_legal_links: a submit whose guard (an
// expr on a context key set false; a permission the caller lacks) or
// whose arguments' schema refuses it is rejected (GUARD_REJECTED,
// INPUT_SCHEMA_VIOLATION), the run stays at its state, and its links are
// still offered. b04 lists the blocked approve among the links, as
// mcp-flowgate's default linkFilter (all) does; chainrun lists it so
// under linkFilter: all, and by default offers only reject.
func TestFlowgateGuardFailureOnSubmitBlocksAdvance(t *testing.T) {
	const b04 = `    initialState: open
    states:
      open:
        transitions:
          approve: {target: done, guards: [{kind: permission, permission: demo.approve}], executor: {kind: noop}}
          reject: {target: open, executor: {kind: noop}}
      done: {terminal: true}
`
	for _, tc := range []struct {
		name, states, take, why string
		args                    map[string]any
		links                   string
	}{
		{"guard_failure_on_submit_blocks_advance", `    initialContext: {ready: false}
    initialState: waiting
    states:
      waiting:
        transitions:
          advance: {target: done, guards: [{kind: expr, expr: "$.context.ready == true"}]}
      done: {terminal: true}
`, "advance", `guard 1 (expr "$.context.ready == true")`, nil, ""},
		{"b04_guard_rejection_audited_and_recoverable", "    linkFilter: all\n" + b04, "approve", "guard 1 (permission", nil, "reject, approve (blocked)"},
		{"b04 under chainrun's default linkFilter", b04, "approve", "guard 1 (permission", nil, "reject"},
		{"b03_schema_rejection_returns_legal_links", `    initialState: open
    states:
      open:
        transitions:
          go:
            target: done
            inputSchema:
              type: object
              required: [name]
              properties: {name: {type: string}}
              additionalProperties: false
            executor: {kind: noop}
      done: {terminal: true}
`, "go", "name", map[string]any{"name": 42}, "go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "version: '1'\nworkflows:\n  demo:\n" + tc.states
			w := startFgWalk(t, src, nil)
			start := w.res.State
			var got []string
			for _, l := range w.res.Links {
				if l.Blocked != "" {
					l.Transition += " (blocked)"
				}
				got = append(got, l.Transition)
			}
			if w.res.Status != record.Paused || strings.Join(got, ", ") != tc.links {
				t.Fatalf("start: %s at %s, links %v", w.res.Status, start, got)
			}
			before := len(w.j.transitions)
			w.submit(tc.take, tc.args)
			if w.err == nil || !strings.Contains(w.err.Error(), tc.why) {
				t.Fatalf("--take %s: %v", tc.take, w.err)
			}
			if len(w.j.transitions) != before {
				t.Errorf("a rejected submit was recorded: %+v", w.j.transitions[before:])
			}
			// the run is where it was, and goes on from there
			w.submit("", nil)
			if w.err != nil || w.res.Status != record.Paused || w.res.State != start {
				t.Errorf("after the rejection: %v %s at %s", w.err, w.res.Status, w.res.State)
			}
		})
	}
}

// TestFlowgateWorkflowTimeoutLeavesAStateWithNoTransitions ports
// workflow_failure_paths.rs runtime_timeout_transitions_workflow_to_terminal:
// a workflow with timeoutMs 50 and onTimeout {target: timed_out} starts
// at "working", a state with no transitions, where the run waits; a call
// after the timeout passed (mcp-flowgate's get; here a resume) finds it at
// timed_out, terminal. Before it passed, a call finds it still waiting.
func TestFlowgateWorkflowTimeoutLeavesAStateWithNoTransitions(t *testing.T) {
	for name, working := range map[string]string{
		"transitions: {}":       "working: {transitions: {}}",
		"no transitions at all": "working: {goal: wait for the timeout}",
		"a state of its own":    "working: {}",
	} {
		t.Run(name, func(t *testing.T) {
			src := `version: '1'
workflows:
  test.timeout:
    initialState: working
    timeoutMs: 50
    onTimeout: {target: timed_out}
    states:
      ` + working + `
      timed_out: {terminal: true}
`
			now := time.Now()
			clock := func() time.Time { return now }
			j := &memJournal{}
			c := load(t, src)
			res, err := New(WithDir(t.TempDir()), WithClock(clock)).Run(context.Background(), Request{Chain: c, Journal: j})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Paused || res.State != "working" || len(res.Links) != 0 || !strings.Contains(strings.Join(res.Warnings, "\n"), "waits here until the workflow's timeoutMs (50ms) passes") {
				t.Fatalf("start: %s at %s, links %v, warnings %v: %s", res.Status, res.State, res.Links, res.Warnings, res.Error)
			}
			again := func() *record.Result {
				res, err := New(WithDir(t.TempDir()), WithClock(clock)).Run(context.Background(), Request{Chain: c, RunID: res.RunID, History: j.transitions, Journal: j})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			now = now.Add(20 * time.Millisecond)
			if res := again(); res.Status != record.Paused || res.State != "working" {
				t.Fatalf("before the timeout: %s at %s", res.Status, res.State)
			}
			now = now.Add(150 * time.Millisecond)
			res = again()
			if res.Status != record.Succeeded || res.State != "timed_out" || len(res.Chain) != 1 || res.Chain[0].DecidedBy != "timeout" {
				t.Fatalf("after the timeout: %s at %s, chain %+v: %s", res.Status, res.State, res.Chain, res.Error)
			}
		})
	}
}

// TestAStateWithNoWayOutWaits: chain_basic.rs
// no_chain_when_state_has_no_transitions (commit 443aa7a) starts a
// workflow whose only state has no transitions and is not terminal, and
// it sits there. chainrun loads such a file as mcp-flowgate does (with a
// warning naming the state, since nothing but a timeout could move such a
// run) and the run waits there, paused, with no chain.
func TestAStateWithNoWayOutWaits(t *testing.T) {
	for _, states := range []string{"      a: {}\n", "      a: {transitions: {}}\n", "      a: {goal: wait}\n      b: {terminal: true}\n"} {
		src := "version: '1.0.0'\nworkflows:\n  stuck:\n    initialState: a\n    states:\n" + states
		l, err := chain.Parse("stuck.yaml", []byte(src), chain.Options{})
		if err != nil {
			t.Fatalf("%q: %v", states, err)
		}
		warned := false
		for _, w := range l.Warnings {
			warned = warned || strings.Contains(w.Message, `state "a" has no way out`)
		}
		if !warned {
			t.Errorf("%q: no warning naming the state: %v", states, l.Warnings)
		}
		res := runFlow(t, src, Request{})
		if res.Status != record.Paused || res.State != "a" || len(res.Chain) != 0 {
			t.Errorf("%q: %s at %s, chain %+v: %s", states, res.Status, res.State, res.Chain, res.Error)
		}
	}
}

// TestFlowgateRetriesExhaustedFailWithoutAdvancing ports
// baseline_scenarios.rs b06_retry_exhaustion_marks_failed_not_advanced: a
// transition with reliability.retry {maxAttempts: 3, retryOn:
// [transient_error]} whose executor always fails is tried three times,
// and the run is failed at its state, not advanced. A failure that passes
// on a later attempt advances.
func TestFlowgateRetriesExhaustedFailWithoutAdvancing(t *testing.T) {
	for _, tc := range []struct {
		name      string
		failFirst int
		attempts  int
		ok        bool
	}{
		{"always fails", 99, 3, false},
		{"fails twice", 2, 3, true},
		{"fails once", 1, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			count := filepath.Join(dir, "attempts")
			src := wf(`    states:
      a:
        transitions:
          go:
            target: done
            executor:
              kind: cli
              command: sh
              args: ["-c", "echo x >> '` + count + `'; [ $(wc -l < '` + count + `') -gt ` + string(rune('0'+min(tc.failFirst, 9))) + ` ]"]
            reliability:
              retry: {maxAttempts: 3, retryOn: [transient_error], backoff: none}
      done: {terminal: true}
`)
			w := startFgWalk(t, src, nil)
			w.submit("go", nil)
			data, _ := os.ReadFile(count)
			if got := strings.Count(string(data), "x"); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
			switch {
			case tc.ok:
				w.completed("done")
			case w.err != nil || w.res.Status != record.Failed || w.res.State != "a":
				t.Fatalf("want failed at a: %v %s at %s", w.err, w.res.Status, w.res.State)
			}
		})
	}
}
