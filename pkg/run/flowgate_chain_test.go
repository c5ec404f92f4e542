package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// The cases below port mcp-flowgate's deterministic chaining tests
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a):
// crates/mcp-flowgate-core/tests/chain_basic.rs and chain_audit.rs, the
// split of deterministic_chain.rs (deleted at 0063210, whose tests they
// keep). Its counting executor is here a command that appends a line to
// a file: the lines are the executor's runs.

// counted is a workflow of the given states whose executors named COUNT
// append to a file; runs reads how many ran.
func counted(t *testing.T, states string) (src string, runs func() int) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "runs")
	exec := `{kind: cli, command: sh, args: ["-c", "echo x >> '` + file + `'"]}`
	fail := `{kind: cli, command: sh, args: ["-c", "echo x >> '` + file + `'; exit 1"]}`
	states = strings.ReplaceAll(states, "COUNT_FAIL", fail)
	states = strings.ReplaceAll(states, "COUNT", exec)
	return "version: '1.0.0'\nworkflows:\n  pipeline:\n    initialState: a\n    states:\n" + states, func() int {
		data, _ := os.ReadFile(file)
		return strings.Count(string(data), "x")
	}
}

// traceOf is a result's chain as from→transition→to, the transitions a
// caller decided marked with a *.
func traceOf(res *record.Result) string {
	var out []string
	for _, c := range res.Chain {
		mark := ""
		if c.DecidedBy != "" {
			mark = "*"
		}
		out = append(out, c.FromState+"-"+c.Transition+mark+"->"+c.ToState)
	}
	return strings.Join(out, " ")
}

// TestFlowgateDeterministicChaining ports chain_basic.rs
// chain_auto_executes_deterministic_and_stops_at_agent,
// fully_deterministic_chain_reaches_terminal,
// no_chain_when_already_terminal and chain_works_without_executor, and
// chain_audit.rs chain_failure_returns_partial_and_recovery_link and
// chain_runs_after_submit: a call runs the deterministic transitions
// from where it starts until a decision point, a terminal state or a
// failure; the response's chain traces them, and the executors ran once
// each.
func TestFlowgateDeterministicChaining(t *testing.T) {
	linear := `      a:
        goal: Initialize the pipeline
        transitions:
          validate: {title: Validate, target: b, actor: deterministic, executor: COUNT}
      b:
        goal: Review validation results
        transitions:
          deploy: {title: Deploy, target: c, actor: agent, executor: COUNT}
      c: {terminal: true}
`
	three := `      a: {transitions: {step1: {target: b, actor: deterministic, executor: COUNT}}}
      b: {transitions: {step2: {target: c, actor: deterministic, executor: STEP2}}}
      c: {transitions: {step3: {target: d, actor: deterministic, executor: COUNT}}}
      d: {terminal: true}
`
	for _, tc := range []struct {
		name, states string
		status       record.Status
		state, chain string
		links        string
		runs         int
	}{
		{"chain_auto_executes_deterministic_and_stops_at_agent", linear, record.Paused, "b", "a-validate->b", "deploy", 1},
		{"fully_deterministic_chain_reaches_terminal", strings.Replace(three, "STEP2", "COUNT", 1), record.Succeeded, "d", "a-step1->b b-step2->c c-step3->d", "", 3},
		{"no_chain_when_already_terminal", "      a: {terminal: true}\n", record.Succeeded, "a", "", "", 0},
		{"chain_works_without_executor", `      a: {transitions: {route: {target: b, actor: deterministic}}}
      b: {transitions: {next: {target: c, actor: agent, executor: COUNT}}}
      c: {terminal: true}
`, record.Paused, "b", "a-route->b", "next", 0},
		// the first step succeeds, the second fails: the run stays at b
		// with the step that succeeded, and the failed transition is a
		// link, its retry
		{"chain_failure_returns_partial_and_recovery_link", strings.Replace(three, "STEP2", "COUNT_FAIL", 1), record.Failed, "b", "a-step1->b", "step2", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, runs := counted(t, tc.states)
			res := runChain(t, src, nil)
			if res.Status != tc.status || res.State != tc.state || traceOf(res) != tc.chain {
				t.Fatalf("%s at %s, chain %q: %s", res.Status, res.State, traceOf(res), res.Error)
			}
			var links []string
			for _, l := range res.Links {
				links = append(links, l.Transition)
			}
			if strings.Join(links, " ") != tc.links {
				t.Errorf("links %v, want %q", links, tc.links)
			}
			if runs() != tc.runs {
				t.Errorf("the executors ran %d times, want %d", runs(), tc.runs)
			}
		})
	}

	// chain_runs_after_submit: a submit runs its transition, then chains
	// on from its target. mcp-flowgate's chain lists finalize alone;
	// chainrun's lists every transition of the call, the one the caller
	// decided first, marked decidedBy: caller (docs/workflows.md) — the
	// transitions it ran on its own are mcp-flowgate's chain.
	t.Run("chain_runs_after_submit", func(t *testing.T) {
		src, runs := counted(t, `      a: {transitions: {begin: {target: b, actor: agent, executor: COUNT}}}
      b: {transitions: {finalize: {target: c, actor: deterministic, executor: COUNT}}}
      c: {terminal: true}
`)
		w := startFgWalk(t, src, nil)
		if w.res.Status != record.Paused || w.res.State != "a" || runs() != 0 {
			t.Fatalf("start: %s at %s, %d runs", w.res.Status, w.res.State, runs())
		}
		w.submit("begin", nil)
		w.completed("c")
		if traceOf(w.res) != "a-begin*->b b-finalize->c" || runs() != 2 {
			t.Errorf("chain %q, %d runs", traceOf(w.res), runs())
		}
	})
}

// TestFlowgatePhaseGuidance ports chain_guidance.rs (commit 443aa7a)
// phase_guidance_appears_in_response and
// phase_guidance_absent_when_not_configured: after the chain, the
// response at b carries b's goal and guidance (as goal and instructions);
// a state with neither carries none.
func TestFlowgatePhaseGuidance(t *testing.T) {
	w := startFgWalk(t, `version: '1.0.0'
workflows:
  pipeline:
    initialState: a
    states:
      a:
        goal: Initialize the pipeline
        guidance: System will auto-validate inputs
        transitions:
          validate: {target: b, actor: deterministic, executor: {kind: noop}}
      b:
        goal: Review validation results
        guidance: Check the context for validation output before proceeding
        transitions:
          deploy: {target: c, actor: agent, executor: {kind: noop}}
      c:
        transitions:
          finish: {target: d, actor: agent}
      d: {terminal: true}
`, nil)
	g := w.res.Guidance
	if w.res.State != "b" || g == nil || g.Goal != "Review validation results" || g.Instructions != "Check the context for validation output before proceeding" {
		t.Fatalf("at %s: %+v", w.res.State, g)
	}
	w.submit("deploy", nil)
	if w.err != nil || w.res.State != "c" {
		t.Fatalf("deploy: %v at %s", w.err, w.res.State)
	}
	if g := w.res.Guidance; g != nil && (g.Goal != "" || g.Instructions != "") {
		t.Errorf("c has no guidance, the response carries %+v", g)
	}
}
