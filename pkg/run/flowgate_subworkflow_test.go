package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// subWorkflows are the called workflows of workflow_executor.rs's
// runtime (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-executors/tests/workflow_executor.rs), and a
// parent whose transition run_sub calls CALLED.
const subWorkflows = `version: '1.0.0'
workflows:
  parent:
    initialState: running
    states:
      running:
        transitions:
          run_sub:
            target: after
            actor: deterministic
            executor: {kind: workflow, definitionId: CALLED, input: {trigger: polled}, timeoutMs: 5000}
            output: {sub: "$.output"}
      after: {terminal: true}
  auto_complete:
    initialState: done
    states:
      done: {terminal: true}
  two_step:
    initialState: first
    states:
      first:
        transitions:
          go: {target: done, executor: {kind: noop}}
      done: {terminal: true}
  never_ends:
    initialState: waiting
    states:
      waiting:
        transitions:
          loop: {target: waiting, executor: {kind: noop}}
`

// TestFlowgateWorkflowExecutor ports workflow_executor.rs.
// sub_workflow_completes_and_returns_context and
// sub_workflow_polls_until_terminal: a called workflow whose initial
// state is terminal completes at once and returns its context, an
// object, and the parent goes on. sub_workflow_times_out: mcp-flowgate's
// executor polls a child that waits at a decision until its timeoutMs
// (100) passes, then fails with a timeout; chainrun differs on purpose:
// the child's decision is the run's (it pauses, inside the child, with
// the child's links, and resume --take goes on in it), and timeoutMs
// bounds the time the child runs in one call, not a wait for a decision.
// sub_workflow_missing_definition_surfaces_as_executor_error: a
// definitionId that names no workflow is a permanent error there; here
// the run is refused before anything runs, naming it.
func TestFlowgateWorkflowExecutor(t *testing.T) {
	run := func(t *testing.T, called string) (*record.Result, error) {
		src := strings.Replace(subWorkflows, "CALLED", called, 1)
		return New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src)})
	}
	t.Run("sub_workflow_completes_and_returns_context", func(t *testing.T) {
		res, err := run(t, "auto_complete")
		if err != nil || res.Status != record.Succeeded || res.State != "after" {
			t.Fatalf("%v %+v", err, res)
		}
		if _, ok := res.Context["sub"].(map[string]any); !ok {
			t.Errorf("the called workflow's output is not an object: %#v", res.Context["sub"])
		}
	})
	t.Run("sub_workflow_times_out (a decision inside pauses the run)", func(t *testing.T) {
		res, err := run(t, "never_ends")
		if err != nil || res.Status != record.Paused || res.State != "running" || len(res.Within) != 1 ||
			res.Within[0].Workflow != "never_ends" || res.Within[0].State != "waiting" || len(res.Links) != 1 || res.Links[0].Transition != "loop" {
			t.Fatalf("%v %+v", err, res)
		}
	})
	t.Run("a decision inside, taken", func(t *testing.T) {
		src := strings.Replace(subWorkflows, "CALLED", "two_step", 1)
		j := &memJournal{}
		c := load(t, src)
		res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Journal: j})
		if err != nil || res.Status != record.Paused || len(res.Within) != 1 || res.Within[0].State != "first" {
			t.Fatalf("start: %v %+v", err, res)
		}
		res, err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j, Take: "go"})
		if err != nil || res.Status != record.Succeeded || res.State != "after" {
			t.Fatalf("--take go: %v %+v", err, res)
		}
	})
	t.Run("sub_workflow_missing_definition_surfaces_as_executor_error", func(t *testing.T) {
		res, err := run(t, "does_not_exist")
		var pe *response.PreflightError
		if res != nil || !errors.As(err, &pe) || !strings.HasSuffix(err.Error(), "nothing was run") || !strings.Contains(err.Error(), "definitionId does_not_exist: no workflow of test.yaml is named does_not_exist") {
			t.Fatalf("%v %+v", err, res)
		}
	})
}

// TestFlowgateCapabilityOutputsAreChecked ports
// scoped_capability_io_roundtrip.rs run_roundtrip_and_assert_scoping
// (v17_accepts_cap_output_matching_snippet_schema,
// v18_accepts_cap_completing_normally), cap_output_violation.rs
// v17_rejects_cap_output_that_fails_snippet_schema and cap_terminated.rs
// v18_rejects_cap_terminating_abnormally (commit 443aa7a,
// crates/mcp-flowgate-executors/tests/): a capability's declared output
// reaches the caller's context at the use.outputs path, and nothing else
// of its context does; an output its snippet schema refuses, or a
// capability that fails, fails the caller's transition, and the caller's
// context does not get the key.
func TestFlowgateCapabilityOutputsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		name, capability string
		ok               bool
		says             string
	}{
		{"run_roundtrip_and_assert_scoping", `    initialState: ready
    initialContext: {internal_secret: TOPSECRET, verdict: pass}
    states:
      ready: {terminal: true}
`, true, ""},
		{"v17_rejects_cap_output_that_fails_snippet_schema", `    initialState: ready
    initialContext: {verdict: approved}
    states:
      ready: {terminal: true}
`, false, "verdict"},
		{"v18_rejects_cap_terminating_abnormally", `    initialState: vetting
    states:
      vetting:
        transitions:
          run_check: {target: done, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "echo check crashed >&2; exit 1"]}}
      done: {terminal: true}
`, false, "check crashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `version: '1.0.0'
workflows:
  cap.plan.vet:
    verb: plan
    snippet:
      inputs: {}
      outputs:
        verdict: {type: string, enum: [pass, fail, needs-revision]}
` + tc.capability + `  flow.add-feature:
    initialState: planning
    states:
      planning:
        transitions:
          plan_drafted:
            target: done
            executor:
              kind: workflow
              definitionId: cap.plan.vet
              use:
                outputs: {"$.context.vet_verdict": verdict}
      done: {terminal: true}
`
			loaded, err := chain.Parse("caps.yaml", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			l := loaded.Named("flow.add-feature")
			w := &fgWalk{t: t, src: src, j: &memJournal{}}
			w.res, w.err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: l, Journal: w.j})
			if w.err != nil || w.res.Status != record.Paused {
				t.Fatalf("start: %v %+v", w.err, w.res)
			}
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: l, History: w.j.transitions, Journal: w.j, Take: "plan_drafted"})
			if err != nil {
				t.Fatal(err)
			}
			if _, leaked := res.Context["internal_secret"]; leaked {
				t.Errorf("the capability's own context reached the caller: %v", res.Context)
			}
			if tc.ok {
				if res.Status != record.Succeeded || res.State != "done" || res.Context["vet_verdict"] != "pass" {
					t.Fatalf("%s at %s, context %v: %s", res.Status, res.State, res.Context, res.Error)
				}
				return
			}
			if res.Status != record.Failed || res.State != "planning" || !strings.Contains(res.Error, tc.says) {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
			if _, written := res.Context["vet_verdict"]; written {
				t.Errorf("vet_verdict written on a failure: %v", res.Context)
			}
		})
	}
}
