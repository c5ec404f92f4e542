package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// fallbackFlow is a workflow whose deterministic transition go runs
// primary, then the fallback executors, each a shell script that
// appends its name to a tally (so the test sees who ran, how often),
// under retry (a reliability.retry mapping, or "").
func fallbackFlow(tally, retry string, primary string, fallbacks ...string) string {
	sh := func(name, script string) string {
		return fmt.Sprintf(`{kind: cli, command: sh, args: ["-c", "echo %s >> '%s'; %s"]}`, name, tally, script)
	}
	var fb strings.Builder
	for i, s := range fallbacks {
		fmt.Fprintf(&fb, "                  - %s\n", sh(fmt.Sprintf("f%d", i+1), s))
	}
	rel := "            reliability:\n"
	if retry != "" {
		rel += "              retry: " + retry + "\n"
	}
	if len(fallbacks) > 0 {
		rel += "              fallback:\n                executors:\n" + fb.String()
	}
	return wf(`    states:
      a:
        transitions:
          go:
            target: done
            actor: deterministic
            executor: ` + sh("p", primary) + `
` + rel + `      done: {terminal: true}
`)
}

// selections are the fallback.selected events: each candidate's number
// and kind.
func selections(rec *event.Recorder) []string {
	var out []string
	for _, e := range rec.Events() {
		if e.Type == event.FallbackSelected {
			out = append(out, fmt.Sprintf("%d:%s", e.Candidate, e.Kind))
		}
	}
	return out
}

// TestFlowgateFallbackSelectedWhenPrimaryExhausts ports mcp-flowgate's
// audit_records_fallback_selected_when_primary_exhausts
// (matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/invariants_actor_audit.rs; at 9368194
// crates/mcp-flowgate-core/tests/invariants.rs line 563) and
// b07_fallback_succeeds_after_primary_exhausts (same commit,
// tests/baseline_scenarios.rs): a primary that always fails under
// retry {maxAttempts: 1} gives way to the fallback, which succeeds; the
// run completes at the terminal target, and exactly one
// fallback.selected names candidate 1 and its kind. Its result is the
// transition's (the context holds the fallback's JSON output) and the
// run's steps say which candidate answered.
func TestFlowgateFallbackSelectedWhenPrimaryExhausts(t *testing.T) {
	tally := filepath.Join(t.TempDir(), "tally")
	src := fallbackFlow(tally, "{maxAttempts: 1}", "exit 1", `echo '{\"answered\": \"backup\"}'`)
	rec := &event.Recorder{}
	res := runFlow(t, src, Request{Events: rec})
	if res.Status != record.Succeeded || res.State != "done" {
		t.Fatalf("want completed at done: %s at %s: %s", res.Status, res.State, res.Error)
	}
	if got := selections(rec); strings.Join(got, ",") != "1:cli" {
		t.Errorf("fallback.selected events %v, want exactly one, candidate 1 (cli)", got)
	}
	if got := asJSON(t, res.Context["answered"]); got != `"backup"` {
		t.Errorf("context answered = %s, want the fallback's output", got)
	}
	var steps []string
	for _, s := range res.Steps {
		steps = append(steps, fmt.Sprintf("%s/%s/%d", s.ID, s.Status, s.Fallback))
	}
	if strings.Join(steps, ",") != "go/failed/0,go/succeeded/1" {
		t.Errorf("steps %v: want the primary failed, then fallback 1 succeeded", steps)
	}
}

// TestFlowgateFallbackOrder: mcp-flowgate's execute_with_reliability
// (443aa7a, crates/mcp-flowgate-core/src/reliability.rs) tries the
// primary, then each fallback in declaration order, each under the same
// retry policy, and stops at the first success; when every candidate
// fails the call fails with the last one's error, as the primary alone
// would, and the run stays at its state.
func TestFlowgateFallbackOrder(t *testing.T) {
	for _, tc := range []struct {
		name      string
		retry     string
		primary   string
		fallbacks []string
		ran       string // the tally: who ran, in order
		selected  string
		ok        bool
		err       string
	}{
		{"primary ok: no fallback runs", "", "true", []string{"true"}, "p", "", true, ""},
		{"primary fails: the first fallback answers", "", "exit 3", []string{"true", "true"}, "p f1", "1:cli", true, ""},
		{"the first fallback fails too: the second answers", "", "exit 3", []string{"exit 4", "true"}, "p f1 f2", "1:cli,2:cli", true, ""},
		{"all fail: the last failure is the call's", "", "exit 3", []string{"exit 4", "exit 5"}, "p f1 f2", "1:cli,2:cli", false, "exited with code 5"},
		{"retry applies to each candidate", "{maxAttempts: 2, backoff: none}", "exit 3", []string{"exit 4", "true"}, "p p f1 f1 f2", "1:cli,2:cli", true, ""},
		{"retry: an answer on a candidate's second attempt", "{maxAttempts: 3, backoff: none}", "exit 3",
			[]string{"[ $(grep -c f1 'TALLY') -ge 2 ]"}, "p p p f1 f1", "1:cli", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tally := filepath.Join(t.TempDir(), "tally")
			var fbs []string
			for _, f := range tc.fallbacks {
				fbs = append(fbs, strings.ReplaceAll(f, "TALLY", tally))
			}
			rec := &event.Recorder{}
			res := runFlow(t, fallbackFlow(tally, tc.retry, tc.primary, fbs...), Request{Events: rec})
			data, _ := os.ReadFile(tally)
			if got := strings.Join(strings.Fields(string(data)), " "); got != tc.ran {
				t.Errorf("ran %q, want %q", got, tc.ran)
			}
			if got := strings.Join(selections(rec), ","); got != tc.selected {
				t.Errorf("fallback.selected %q, want %q", got, tc.selected)
			}
			switch {
			case tc.ok && (res.Status != record.Succeeded || res.State != "done"):
				t.Errorf("want completed at done: %s at %s: %s", res.Status, res.State, res.Error)
			case !tc.ok && (res.Status != record.Failed || res.State != "a" || !strings.Contains(res.Error, tc.err)):
				t.Errorf("want failed at a with %q: %s at %s: %s", tc.err, res.Status, res.State, res.Error)
			}
		})
	}
}

// TestFlowgateFallbackOnEnterAndCapability: an onEnter's reliability
// runs its fallbacks too (mcp-flowgate's runtime_chain.rs reads the
// onEnter's reliability into the same execute_with_reliability), and a
// fallback that names a capability runs that capability's executor; the
// answering candidate's output feeds the output mappings.
func TestFlowgateFallbackOnEnterAndCapability(t *testing.T) {
	src := `capabilities:
  cached: {executor: {kind: cli, command: sh, args: ["-c", "echo '{\"from\": \"cache\"}'"]}}
workflows:
  w:
    initialState: a
    states:
      a:
        transitions:
          go: {target: b, actor: deterministic}
      b:
        onEnter:
          executor: {kind: cli, command: sh, args: ["-c", "exit 9"]}
          output:
            origin: "$.output.json.from"
          reliability:
            fallback:
              executors:
                - {capability: cached}
        transitions:
          end: {target: done, actor: deterministic}
      done: {terminal: true}
`
	rec := &event.Recorder{}
	res := runFlow(t, src, Request{Events: rec})
	if res.Status != record.Succeeded || res.State != "done" {
		t.Fatalf("want completed at done: %s at %s: %s", res.Status, res.State, res.Error)
	}
	if got := asJSON(t, res.Context["origin"]); got != `"cache"` {
		t.Errorf("origin = %s, want the capability's output, mapped", got)
	}
	if got := strings.Join(selections(rec), ","); got != "1:cli" {
		t.Errorf("fallback.selected %q, want 1:cli", got)
	}
}

// TestFlowgateFallbackUnderADurableEngine: a fallback executor shares
// its transition's step id, and a durable engine's task names which
// candidate it runs: the same candidates run in the same order, with
// the same retries, as in a local run.
func TestFlowgateFallbackUnderADurableEngine(t *testing.T) {
	tally := filepath.Join(t.TempDir(), "tally")
	c := load(t, fallbackFlow(tally, "{maxAttempts: 2, backoff: none}", "exit 3", "exit 4", `echo '{\"answered\": \"second\"}'`))
	var calls []string
	worker := New(WithDir(t.TempDir()))
	rec := &event.Recorder{}
	res, err := remoteEngine(c, worker, &calls, WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Events: rec})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || asJSON(t, res.Context["answered"]) != `"second"` {
		t.Fatalf("want succeeded with the second fallback's answer: %s %v: %s", res.Status, res.Context, res.Error)
	}
	data, _ := os.ReadFile(tally)
	if got := strings.Join(strings.Fields(string(data)), " "); got != "p p f1 f1 f2" {
		t.Errorf("ran %q, want p p f1 f1 f2", got)
	}
	if got := strings.Join(selections(rec), ","); got != "1:cli,2:cli" {
		t.Errorf("fallback.selected %q", got)
	}
}

// TestFlowgateFallbackThatMustNotRepeat: a transition whose fallback is
// not idempotent offers its retry as a rerun that needs confirming,
// even when the executor it stands in for is idempotent; with neither,
// the retry is plain.
func TestFlowgateFallbackThatMustNotRepeat(t *testing.T) {
	for _, tc := range []struct {
		idempotent string
		rerun      bool
	}{{"false", true}, {"true", false}} {
		tally := filepath.Join(t.TempDir(), "tally")
		src := strings.Replace(fallbackFlow(tally, "", "exit 3", "exit 4"), `{kind: cli, command: sh, args: ["-c", "echo f1`, `{kind: cli, idempotent: `+tc.idempotent+`, command: sh, args: ["-c", "echo f1`, 1)
		res := runFlow(t, src, Request{})
		if res.Status != record.Failed || len(res.Links) != 1 || res.Links[0].Rerun != tc.rerun {
			t.Errorf("idempotent %s: %s, links %+v: want one retry, rerun %v", tc.idempotent, res.Status, res.Links, tc.rerun)
		}
	}
}

// TestFlowgateFallbackInsideParallelAndPipeline: mcp-flowgate runs each
// parallel branch (parallel.rs) and each pipeline step (pipeline.rs,
// 443aa7a) through execute_with_reliability under its own reliability
// block, fallback included: a branch or step whose executor fails past
// its retries is answered by its fallback, and the join or the pipeline
// goes on; one whose fallbacks all fail fails as before.
func TestFlowgateFallbackInsideParallelAndPipeline(t *testing.T) {
	for _, tc := range []struct {
		name, executor string
		ok             bool
		ran            string
	}{
		{"a parallel branch answered by its fallback", "kind: parallel\n              join: all\n              branches:", true, "p p f1"},
		{"a pipeline step answered by its fallback", "kind: pipeline\n              steps:", true, "p p f1"},
		{"a pipeline step whose fallback fails too", "kind: pipeline\n              steps:", false, "p p f1 f1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tally := filepath.Join(t.TempDir(), "tally")
			last := "true"
			if !tc.ok {
				last = "exit 4"
			}
			src := wf(`    states:
      a:
        transitions:
          go:
            target: done
            actor: deterministic
            executor:
              ` + tc.executor + `
                - kind: cli
                  command: sh
                  args: ["-c", "echo p >> '` + tally + `'; exit 3"]
                  reliability:
                    retry: {maxAttempts: 2, backoff: none}
                    fallback:
                      executors:
                        - {kind: cli, command: sh, args: ["-c", "echo f1 >> '` + tally + `'; ` + last + `"]}
      done: {terminal: true}
`)
			rec := &event.Recorder{}
			res := runFlow(t, src, Request{Events: rec})
			data, _ := os.ReadFile(tally)
			if got := strings.Join(strings.Fields(string(data)), " "); got != tc.ran {
				t.Errorf("ran %q, want %q", got, tc.ran)
			}
			if got := strings.Join(selections(rec), ","); got != "1:cli" {
				t.Errorf("fallback.selected %q, want 1:cli", got)
			}
			if ok := res.Status == record.Succeeded && res.State == "done"; ok != tc.ok {
				t.Errorf("%s at %s: %s; want ok %v", res.Status, res.State, res.Error, tc.ok)
			}
		})
	}
}
