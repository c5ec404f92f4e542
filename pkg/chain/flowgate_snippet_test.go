package chain

import "testing"

// TestFlowgateSnippetContract ports snippet_contract.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/snippet_contract.rs; SPEC §5.1, V3–V5),
// whose validator (its check) refuses a capability (cap.*) without a
// snippet: block (MISSING_SNIPPET), a snippet without outputs: and an
// output whose schema is not an object (INVALID_SNIPPET), and lets an
// orchestrator (flow.*) go without one. Its runtime runs a capability
// without a snippet, so chainrun warns of that one (rule F4); the other
// two it refuses, as mcp-flowgate's check does, naming the line and the
// field. Each case's name is the test's; the files are mcp-flowgate's.
func TestFlowgateSnippetContract(t *testing.T) {
	head := "version: \"1.0.0\"\nworkflows:\n  cap.plan.vet:\n    initialState: ready\n"
	tail := "    states:\n      ready: { terminal: true }\n"
	for _, tc := range []struct {
		name, src string
		err, warn string // a refusal's text; else a warning's ("" none about snippets)
	}{
		{"v3_accepts_capability_with_snippet_block", head + "    snippet:\n      inputs:\n        plan: { type: object }\n      outputs:\n        verdict: { type: string }\n" + tail, "", ""},
		{"v3_rejects_capability_without_snippet_block", head + tail, "",
			`c.yaml:3:3: warning: workflow "cap.plan.vet": a capability declares its contract in snippet: {inputs, outputs}, which mcp-flowgate's check requires (MISSING_SNIPPET): without it, what the run returns is not checked`},
		{"v4_accepts_empty_inputs_and_outputs_objects", head + "    snippet:\n      inputs:  {}\n      outputs: {}\n" + tail, "", ""},
		{"v4_rejects_capability_with_snippet_missing_outputs", head + "    snippet:\n      inputs:\n        plan: { type: object }\n" + tail,
			`c.yaml:6:7: workflow "cap.plan.vet": snippet: inputs and outputs are both required (write {} for none)`, ""},
		{"v5_accepts_each_entry_as_json_schema_object", head + "    snippet:\n      inputs:\n        plan: { type: object, properties: { title: { type: string } } }\n      outputs:\n        verdict: { type: string, enum: [pass, fail, needs-revision] }\n" + tail, "", ""},
		{"v5_rejects_non_object_schema_entry", head + "    snippet:\n      inputs:  {}\n      outputs:\n        verdict: \"string\"  # scalar, not a schema object\n" + tail,
			`c.yaml:8:18: workflow "cap.plan.vet": snippet: outputs: verdict: its JSON Schema is a mapping ({type: string}), not text`, ""},
		{"v5_rejects a list as an output's schema", head + "    snippet:\n      inputs:  {}\n      outputs:\n        verdict: [string]\n" + tail,
			`c.yaml:8:18: workflow "cap.plan.vet": snippet: outputs: verdict: its JSON Schema is a mapping ({type: string}), not a list`, ""},
		{"v3_does_not_fire_on_orchestrators", "version: \"1.0.0\"\nworkflows:\n  flow.add-feature:\n    initialState: ready\n" + tail, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) { loadsOrRefuses(t, tc.src, tc.err, tc.warn, "snippet") })
	}
}
