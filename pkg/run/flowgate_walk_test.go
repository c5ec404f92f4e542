package run

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// flowgateExamples are mcp-flowgate's examples/ as commit 443aa7a (and
// the v0.6 branch copied in cmd/testdata) has them.
var flowgateExamples = filepath.Join("..", "..", "cmd", "testdata", "flowgate-v06", "examples")

// noopStandIn is walk_examples.rs's AlwaysNoopRegistry: every executor,
// whatever its kind, succeeds at once with {ok: true, description:
// "noop-result", value: "noop-value"}.
func noopStandIn(context.Context, *chain.Step) (Canned, bool) {
	return Canned{Data: map[string]any{"ok": true, "description": "noop-result", "value": "noop-value"}}, true
}

// walkExample is walk_examples.rs's walk_workflow: start, then while the
// run offers exactly one transition that is not deterministic take it
// (no arguments), until a decision between several, no link, a refusal,
// the end, or maxSteps. It returns the state and the steps taken.
func walkExample(t *testing.T, file, workflow string, maxSteps int) (string, int) {
	t.Helper()
	lib := &catalog.Library{Dir: filepath.Join(flowgateExamples, filepath.Dir(file))}
	loaded, err := loader.LoadFile(filepath.Join(flowgateExamples, file), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := loaded.Named(workflow)
	if c == nil {
		t.Fatalf("%s has no workflow %s", file, workflow)
	}
	j := &memJournal{}
	engine := func() Engine {
		return New(WithDir(t.TempDir()), WithStandIn(noopStandIn), WithWorkflows(lib.FindWorkflow), WithScripts(lib.FindScript))
	}
	res, err := engine().Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil {
		t.Fatalf("start(%s): %v", workflow, err)
	}
	if res.Status == record.Failed {
		t.Fatalf("walk(%s): start failed: %s", workflow, res.Error)
	}
	steps := 0
	for ; steps < maxSteps && res.Status == record.Paused; steps++ {
		var offered []string
		for _, l := range res.Links {
			if l.Blocked == "" {
				offered = append(offered, l.Transition)
			}
		}
		if len(offered) != 1 {
			break // a decision between several, or nothing to take
		}
		next, err := engine().Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j, Take: offered[0]})
		if err != nil {
			break // refused: the walker cannot drive it further
		}
		res = next
	}
	return res.State, steps
}

// TestFlowgateExamplesWalk ports walk_examples.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/walk_examples.rs) for the examples the
// v0.6 branch has: each workflow, its executors all standing in as noop,
// walks to the state the test names. deploy_pipeline, governed_change,
// content_publish and expense_approval walk examples that branch does not
// hold; recovery_pattern_walks is ignored there (its mapping reads a field
// the noop registry does not produce).
func TestFlowgateExamplesWalk(t *testing.T) {
	for _, tc := range []struct {
		name, file, workflow string
		max                  int
		states               []string
		steps                int
	}{
		// swe_agent_walks_to_critiquing (critiquing, 5 steps) is ignored
		// there: planning's plan_ready requires arguments an LLM gives, so
		// without them the submit is refused and the walk stops at
		// planning after one step, as it does here
		{"swe_agent_walks_to_critiquing (ignored there)", "swe-agent.yaml", "swe_agent", 20, []string{"planning"}, 1},
		{"authoring_workflow_walks_to_drafting", "authoring-workflow.yaml", "authoring", 20, []string{"ready", "drafting", "published"}, -1},
		{"parallel_all_pattern_walks", "pattern-parallel/gateway.yaml", "parallel_all", 10, []string{"done"}, -1},
		{"dynamic_fanout_pattern_walks", "pattern-dynamic-fanout/gateway.yaml", "dynamic_fanout", 10, []string{"done"}, -1},
		{"output_mapping_pattern_walks_all_workflows mapping_set", "pattern-output-mapping/gateway.yaml", "mapping_set", 10, []string{"done"}, -1},
		{"output_mapping_pattern_walks_all_workflows mapping_arithmetic", "pattern-output-mapping/gateway.yaml", "mapping_arithmetic", 10, []string{"done"}, -1},
		{"output_mapping_pattern_walks_all_workflows mapping_concat", "pattern-output-mapping/gateway.yaml", "mapping_concat", 10, []string{"done"}, -1},
		// tdd_walk_workflow_detects_rejected_transition: stops at review
		{"guidance_templates_pattern_walks", "pattern-guidance-templates/gateway.yaml", "templated_review", 10, []string{"review"}, -1},
		{"evidence_quorum_pattern_walks", "pattern-evidence-quorum/gateway.yaml", "evidence_quorum", 10, nil, -1},
		{"mock_test_pattern_walks", "pattern-mock-test/gateway.yaml", "mock_test_demo", 10, nil, -1},
		// tdd_next_advance_fires_single_non_deterministic_link: it starts
		// at action
		{"circuit_breaker_pattern_walks", "pattern-circuit-breaker/gateway.yaml", "circuit_breaker_demo", 30, []string{"action"}, -1},
		{"scripts_pattern_walks", "pattern-scripts/gateway.yaml", "governed_script", 10, []string{"review", "done"}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, steps := walkExample(t, tc.file, tc.workflow, tc.max)
			if state == "" || tc.states != nil && !slices.Contains(tc.states, state) {
				t.Errorf("walk(%s) ended at %q after %d steps, want one of %v", tc.workflow, state, steps, tc.states)
			}
			if tc.steps >= 0 && steps != tc.steps {
				t.Errorf("walk(%s): %d steps, want %d", tc.workflow, steps, tc.steps)
			}
		})
	}
}
