package chain

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFlowgateValidationRules ports validation_rules.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/validation_rules.rs) with its own
// fixtures (testdata/flowgate-validation-rules, each named by its test):
// its check refuses each rejects_ case. Its runtime runs V2, V7, V8, V10
// and V11's, so chainrun loads them with a warning naming the rule (rule
// F4); V1 (an unknown verb) and V9 (an orchestrator's verb) it refuses,
// as mcp-flowgate's check does. v7's "flow" (no dot) is of neither tier
// there, and its test asserts nothing of it: it loads without one here.
// V6 (a capability's primary executor by verb category) and V15/V16
// (contract hash pins, whose expects_contract_hash is ignored with a
// warning) are not checked; the accepts_ cases load with neither.
func TestFlowgateValidationRules(t *testing.T) {
	for _, tc := range []struct{ file, err, warn, topic string }{
		{"v1_accepts_capability_with_blessed_verb_0", "", "", "verb"},
		{"v1_rejects_capability_with_unknown_verb_0", `c.yaml:4:5: workflow "cap.bogus.thing": verb "destroy" is not one of triage,`, "", ""},
		{"v2_accepts_when_id_verb_matches_declared_verb_0", "", "", "is named cap."},
		{"v2_rejects_when_id_verb_differs_from_declared_verb_0", "", `c.yaml:4:5: warning: workflow "cap.plan.draft": a capability of verb review is named cap.review.<name>`, ""},
		{"v7_accepts_well_formed_orchestrator_id_0", "", "", "INVALID_ID_SHAPE"},
		{"v7_rejects_orchestrator_id_missing_name_segment_0", "", "", "INVALID_ID_SHAPE"},
		{"v7_rejects_orchestrator_id_missing_name_segment_1", "", `c.yaml:3:3: warning: workflow "flow.": an orchestrator is named flow.<name>; mcp-flowgate's check refuses this name (INVALID_ID_SHAPE)`, ""},
		{"v8_accepts_orchestrator_without_snippet_0", "", "", "ORCHESTRATOR_HAS_SNIPPET"},
		{"v8_rejects_orchestrator_that_declares_snippet_0", "", `c.yaml:5:5: warning: workflow "flow.add-feature": snippet: an orchestrator (flow.*) declares none`, ""},
		{"v9_accepts_orchestrator_without_verb_0", "", "", "verb"},
		{"v9_rejects_orchestrator_that_declares_verb_0", `c.yaml:4:5: workflow "flow.add-feature": an orchestrator (flow.*) declares no verb`, "", ""},
		{"v10_accepts_capability_with_no_nested_workflow_invocation_0", "", "", "CAPABILITY_NESTING"},
		{"v10_rejects_capability_invoking_another_workflow_0", "", `c.yaml:29:15: warning: transition "t" executor: a capability (cap.*) calls no workflow, here cap.plan.helper: only an orchestrator composes them; mcp-flowgate's check refuses it (CAPABILITY_NESTING)`, ""},
		{"v11_accepts_orchestrator_invoking_only_capabilities_0", "", "", "ORCHESTRATOR_NESTING"},
		{"v11_rejects_orchestrator_invoking_another_orchestrator_0", "", `warning: transition "t" executor: an orchestrator (flow.*) calls capabilities only, here orchestrator flow.sub; mcp-flowgate's check refuses it (ORCHESTRATOR_NESTING)`, ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "flowgate-validation-rules", tc.file+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			loadsOrRefuses(t, string(src), tc.err, tc.warn, tc.topic)
		})
	}
}
