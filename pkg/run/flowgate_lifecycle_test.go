package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// demoWorkflow is a file of one workflow, demo, as mcp-flowgate's tests
// write them (their own initialState).
func demoWorkflow(body string) string {
	return "version: '1.0.0'\nworkflows:\n  demo:\n" + body
}

// TestFlowgateStressLifecycle ports stress_lifecycle.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/stress_lifecycle.rs; the same cases in
// stress_scenarios.rs at f1f2ef4 and before), each subtest named after
// its test. s08_idempotency_key_auto and
// s09_idempotency_key_custom_template give idempotencyKey to a noop
// executor and stand a recorder in for every kind; chainrun's noop takes
// the key and sends it nowhere, as mcp-flowgate's own noop does, so each
// case runs the file as written, then with the noop replaced by a cli
// executor that records its IDEMPOTENCY_KEY, the recorder's stand-in.
func TestFlowgateStressLifecycle(t *testing.T) {
	// the key is <workflowId>.<transition>.<correlationId>: chainrun's
	// run id, go, and the take (no transition was recorded before it);
	// the executor ran once
	t.Run("s08_idempotency_key_auto", func(t *testing.T) {
		keys := idempotencyStress(t, "true")
		if len(keys) != 2 || keys[0] != keys[1]+".go.0" {
			t.Errorf("keys %q (last: the run id)", keys)
		}
	})
	// a template fills {transition} and {workflowId}
	t.Run("s09_idempotency_key_custom_template", func(t *testing.T) {
		keys := idempotencyStress(t, `"flowgate:{transition}:{workflowId}"`)
		if len(keys) != 2 || keys[0] != "flowgate:go:"+keys[1] {
			t.Errorf("keys %q (last: the run id)", keys)
		}
	})

	// two approvals, each recording evidence of kind approval, reach the
	// quorum finalize's guard asks for; after one it is refused
	t.Run("s03_multi_approver_quorum", func(t *testing.T) {
		w := startFgWalk(t, demoWorkflow(`    initialState: pending
    states:
      pending:
        goal: collect approvals
        transitions:
          approve:
            target: pending
            actor: human
            executor: {kind: cli, command: echo, args: ['{"approved": true}'], evidence: {kind: approval}}
          finalize:
            target: done
            guards: [{kind: evidence, requires: [{kind: approval, count: 2}]}]
            executor: {kind: noop}
      done: {terminal: true}
`), nil)
		w.submit("approve", nil)
		if w.err != nil || w.res.Status != record.Paused || w.res.State != "pending" {
			t.Fatalf("approve: %v %s at %s", w.err, w.res.Status, w.res.State)
		}
		w.submit("finalize", nil)
		w.guardRejected("finalize")
		w.submit("approve", nil)
		w.submit("finalize", nil)
		w.completed("done")
	})

	// the link asks only for what prefill does not give (title); taken,
	// the arguments hold the prefilled values, read from the workflow's
	// input, literals and the context
	t.Run("s07_link_prefill_arguments", func(t *testing.T) {
		w := startFgWalk(t, demoWorkflow(`    initialState: tested
    initialContext: {branch: feat/x}
    inputSchema:
      type: object
      properties: {repo: {type: string}}
    states:
      tested:
        transitions:
          create_pr:
            target: review
            inputSchema:
              type: object
              required: [repo, base, head, title]
              properties:
                repo: {type: string}
                base: {type: string}
                head: {type: string}
                title: {type: string}
            prefill:
              repo: "$.workflow.input.repo"
              base: main
              head: "$.context.branch"
              labels: [auto-generated]
            executor: {kind: noop}
            output: {sent: "$.arguments"}
      review: {terminal: true}
`), map[string]string{"repo": "owner/repo"})
		var link *response.Link
		for i := range w.res.Links {
			if w.res.Links[i].Transition == "create_pr" {
				link = &w.res.Links[i]
			}
		}
		if link == nil || len(link.Args) != 1 || link.Args[0].Name != "title" {
			t.Fatalf("links %+v", w.res.Links)
		}
		w.submit("create_pr", map[string]any{"title": "Add x"})
		w.completed("review")
		if got := w.context("sent"); got != `{"base":"main","head":"feat/x","labels":["auto-generated"],"repo":"owner/repo","title":"Add x"}` {
			t.Errorf("arguments %s", got)
		}
	})

	// a submit after the workflow's timeout passed finds the run moved to
	// onTimeout's target, and the transition asked for does not run
	t.Run("s10_workflow_level_lazy_timeout", func(t *testing.T) {
		src := `version: '1.0.0'
workflows:
  short_lived:
    initialState: open
    timeoutMs: 1
    onTimeout: {target: timed_out_state}
    states:
      open:
        transitions:
          approve: {target: done, executor: {kind: noop}, output: {approved: {set: true}}}
      timed_out_state: {terminal: true}
      done: {terminal: true}
`
		now := time.Now()
		clock := func() time.Time { return now }
		j := &memJournal{}
		c := load(t, src)
		res, err := New(WithDir(t.TempDir()), WithClock(clock)).Run(context.Background(), Request{Chain: c, Journal: j})
		if err != nil || res.Status != record.Paused || res.State != "open" {
			t.Fatalf("start: %v %+v", err, res)
		}
		now = now.Add(20 * time.Millisecond)
		res, err = New(WithDir(t.TempDir()), WithClock(clock)).Run(context.Background(), Request{Chain: c, RunID: res.RunID, History: j.transitions, Journal: j, Take: "approve"})
		if err != nil || res.Status != record.Succeeded || res.State != "timed_out_state" || res.Context["approved"] != nil {
			t.Fatalf("submit after the timeout: %v %s at %s, context %v", err, res.Status, res.State, res.Context)
		}
		if traceOf(res) != "open-timeout*->timed_out_state" {
			t.Errorf("chain %s", traceOf(res))
		}
	})

	// the executor's output, mapped to the context, picks the branch
	for out, want := range map[string]string{`{"success": true}`: "green", `{"success": false}`: "red"} {
		t.Run("s14_transition_auto_branches "+out, func(t *testing.T) {
			w := startFgWalk(t, demoWorkflow(`    initialState: red
    states:
      red:
        transitions:
          run_tests:
            target: red
            executor: {kind: cli, command: echo, args: ['`+out+`']}
            output: {passed: "$.output.success"}
            branches:
              - {when: {kind: expr, expr: "$.context.passed == true"}, target: green}
              - {when: {kind: expr, expr: "$.context.passed == false"}, target: red}
      green: {terminal: true}
`), nil)
			w.submit("run_tests", nil)
			if w.err != nil || w.res.State != want {
				t.Fatalf("%v at %s, want %s", w.err, w.res.State, want)
			}
			if !strings.Contains(traceOf(w.res), "red-run_tests*->"+want) {
				t.Errorf("chain %s", traceOf(w.res))
			}
		})
	}
}

// TestPrefillPathsAreReadAsTheDecisionIsTaken: a transition's prefill
// values that are JSONPaths are read in the run as the decision is taken
// (s07_link_prefill_arguments above), inside objects and lists too, from
// the context as it stands then; a path that cannot be read before the
// transition runs is refused when the file loads, naming the prefill.
func TestPrefillPathsAreReadAsTheDecisionIsTaken(t *testing.T) {
	src := demoWorkflow(`    initialState: a
    initialContext: {owner: ann}
    inputSchema:
      type: object
      properties: {tag: {type: string}}
    states:
      a:
        transitions:
          rename: {target: b, actor: deterministic, output: {owner: {set: bob}}}
      b:
        transitions:
          go:
            target: done
            prefill:
              meta: {owner: "$.context.owner", tags: ["$.input.tag", x]}
              missing: "$.context.nothing"
            output: {sent: "$.arguments"}
      done: {terminal: true}
`)
	w := startFgWalk(t, src, map[string]string{"tag": "t1"})
	w.submit("go", nil)
	w.completed("done")
	if got := w.context("sent"); got != `{"meta":{"owner":"bob","tags":["t1","x"]},"missing":null}` {
		t.Errorf("arguments %s", got)
	}
	bad := strings.Replace(src, `"$.context.nothing"`, `"$.output.json"`, 1)
	_, err := chain.Parse("bad.yaml", []byte(bad), chain.Options{})
	if err == nil || !strings.Contains(err.Error(), `transition "go": prefill: missing: "$.output.json" reads the executor's output`) {
		t.Errorf("a prefill reading $.output: %v", err)
	}
}

// idempotencyStress runs s08/s09's workflow with the key given: as
// written (a noop executor, which must run), then with a cli executor
// recording IDEMPOTENCY_KEY; it returns the keys recorded and the run id.
func idempotencyStress(t *testing.T, key string) []string {
	t.Helper()
	src := demoWorkflow(`    initialState: s
    states:
      s:
        transitions:
          go:
            target: done
            executor:
              kind: noop
              idempotencyKey: ` + key + `
      done:
        terminal: true
`)
	w := startFgWalk(t, src, nil)
	w.submit("go", nil)
	w.completed("done")
	log := newKeyLog(t)
	w = startFgWalk(t, strings.Replace(src, "kind: noop", "kind: cli\n              run: 'echo \"$IDEMPOTENCY_KEY\" >> "+string(log)+"'", 1), nil)
	w.submit("go", nil)
	w.completed("done")
	return append(log.lines(t), w.res.RunID)
}
