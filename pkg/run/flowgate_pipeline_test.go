package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgatePipelineExecutor ports pipeline_executor.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-executors/tests/pipeline_executor.rs): two steps
// succeed in order with summary {n: 2, ok_count: 2, verdict: succeeded};
// a failing first step stops the pipeline by default (bail), the steps
// after it never starting; on_step_failure: continue runs every step
// (and, one having failed, the pipeline still fails);
// empty or missing steps, and an on_step_failure that is neither, are
// refused when the file loads. A failing step is here a command that
// exits 1 (mcp-flowgate's "nonexistent" kind, which chainrun refuses at
// load); each step appends its name to a file, the steps that started.
func TestFlowgatePipelineExecutor(t *testing.T) {
	for _, tc := range []struct {
		name, steps, policy, want, ran string
		ok                             bool
	}{
		{"two_noop_steps_succeed_in_order", "ok1 ok2", "", `{"n":2,"ok_count":2,"verdict":"succeeded"}`, "ok1 ok2", true},
		{"first_step_failure_bails_by_default", "bad ok1 ok2", "", "", "bad", false},
		// every step runs; one failed, so the verdict is failed and the
		// transition fails, as mcp-flowgate's pipeline returns an error
		{"on_step_failure_continue_runs_all_steps", "ok1 bad ok2", "continue", "", "ok1 bad ok2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "started")
			var steps []string
			for _, s := range strings.Fields(tc.steps) {
				exit := "0"
				if s == "bad" {
					exit = "1"
				}
				steps = append(steps, `{kind: cli, command: sh, args: ["-c", "echo `+s+` >> '`+file+`'; exit `+exit+`"]}`)
			}
			policy := ""
			if tc.policy != "" {
				policy = ", on_step_failure: " + tc.policy
			}
			res := runChain(t, wf(`    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: pipeline, steps: [`+strings.Join(steps, ", ")+`]`+policy+`}
            output: {summary: "$.output.summary"}
      b: {terminal: true}
`), nil)
			data, _ := os.ReadFile(file)
			if got := strings.Join(strings.Fields(string(data)), " "); got != tc.ran {
				t.Errorf("steps started: %q, want %q", got, tc.ran)
			}
			if !tc.ok {
				if res.Status != record.Failed || res.State != "a" {
					t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
				}
				return
			}
			if res.Status != record.Succeeded {
				t.Fatalf("%s: %s", res.Status, res.Error)
			}
			if summary, _ := res.Context["summary"].(map[string]any); tc.want != "" {
				for _, k := range []string{"n", "ok_count", "verdict"} {
					if !strings.Contains(tc.want, `"`+k+`":`+asJSON(t, summary[k])) {
						t.Errorf("summary %v, want %s", summary, tc.want)
					}
				}
			}
		})
	}
	for name, executor := range map[string]string{
		"empty_steps_rejects":             `{kind: pipeline, steps: []}`,
		"missing_steps_rejects":           `{kind: pipeline}`,
		"invalid_on_step_failure_rejects": `{kind: pipeline, steps: [{kind: noop}], on_step_failure: explode}`,
	} {
		t.Run(name, func(t *testing.T) {
			src := wf(`    states:
      a:
        transitions:
          go: {target: b, actor: deterministic, executor: ` + executor + `}
      b: {terminal: true}
`)
			if _, err := chain.Parse("p.yaml", []byte(src), chain.Options{}); err == nil || !strings.Contains(err.Error(), "p.yaml:") {
				t.Errorf("%s loads: %v", executor, err)
			}
		})
	}
}
