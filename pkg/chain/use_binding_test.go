package chain

import (
	"strings"
	"testing"
)

// TestUseBindingOfACapability ports use_binding.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/use_binding.rs), V12: a kind: workflow
// step that invokes a capability (cap.*, also under a namespace) without
// use: is mcp-flowgate's MISSING_USE — here a warning, since its runtime
// and its own multi-repo fixture run such a file (its whole final context
// is then the output); a use.outputs key that is not $.context.KEY (nested,
// or another root) is refused; a workflow that is no capability, called
// with input:, draws nothing.
func TestUseBindingOfACapability(t *testing.T) {
	for _, tc := range []struct {
		name, definitionID, use string
		warns                   bool
		refused                 string
	}{
		{"v12_accepts_cap_invocation_with_use_block", "cap.plan.vet", `use: {inputs: {plan: "$.context.draft_plan"}, outputs: {"$.context.vet_verdict": verdict}}`, false, ""},
		{"v12_rejects_cap_invocation_missing_use_block", "cap.plan.vet", "", true, ""},
		{"a namespaced capability without use", "swe/cap.plan.vet", "", true, ""},
		{"v12_accepts_simple_single_segment_host_paths", "cap.plan.vet", `use: {outputs: {"$.context.vet_verdict": verdict}}`, false, ""},
		{"v12_rejects_nested_host_path", "cap.plan.vet", `use: {outputs: {"$.context.plan.verdict": verdict}}`, false, `use.outputs "$.context.plan.verdict": write the context key it sets as "$.context.KEY"`},
		{"v12_rejects_non_context_root_host_path", "cap.plan.vet", `use: {outputs: {"$.input.verdict": verdict}}`, false, `use.outputs "$.input.verdict": write the context key`},
		{"v12_does_not_fire_on_legacy_workflow_to_workflow_invocation", "with_artifact_lock", `input: {artifact: "$.context.artifact_name"}`, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exec := "{kind: workflow, definitionId: " + tc.definitionID
			if tc.use != "" {
				exec += ", " + tc.use
			}
			src := `version: "1.0.0"
workflows:
  flow.add-feature:
    initialState: planning
    states:
      planning:
        goal: plan
        transitions:
          plan_drafted: {target: done, executor: ` + exec + `}}
      done: {terminal: true}
`
			l, err := Parse("flow.yaml", []byte(src), Options{})
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("want refused naming %q, got %v", tc.refused, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			warned := false
			for _, w := range l.Warnings {
				if strings.Contains(w.Message, "MISSING_USE") {
					warned = true
				}
			}
			if warned != tc.warns {
				t.Errorf("MISSING_USE warning %v, want %v: %v", warned, tc.warns, l.Warnings)
			}
		})
	}
}
