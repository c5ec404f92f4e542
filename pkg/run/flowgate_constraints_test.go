package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgateSlotConstraints ports slot_constraints.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/slot_constraints.rs; SPEC §28): a
// blackboard slot's constraint is checked when a transition writes it —
// path_allowlist (allow globs, deny over allow, an array of paths) and
// subset_of (every element in the array a path reads; that array unset
// fails fast), several kinds together — and a write it refuses fails the
// transition naming the slot and the value; a malformed declaration is
// refused when the file loads.
func TestFlowgateSlotConstraints(t *testing.T) {
	for _, tc := range []struct {
		name, constraint, context, value string
		refused                          string // "" passes
	}{
		{"path_allowlist_passes_when_all_paths_match_allow", `{path_allowlist: {allow: ["auth/**", "tests/auth/**"]}}`, "{}",
			`["auth/middleware.rs", "auth/session.rs", "tests/auth/session_test.rs"]`, ""},
		{"path_allowlist_rejects_path_outside_allow", `{path_allowlist: {allow: ["auth/**"]}}`, "{}",
			`["auth/session.rs", "db/migrations/0001.sql"]`, "db/migrations/0001.sql"},
		{"path_allowlist_deny_overrides_allow_for_excluded_subtree", `{path_allowlist: {allow: ["auth/**"], deny: ["auth/legacy/**"]}}`, "{}",
			`["auth/session.rs", "auth/legacy/v1.rs"]`, "auth/legacy/v1.rs"},
		{"path_allowlist_rejects_non_array_slot_value", `{path_allowlist: {allow: ["**"]}}`, "{}", `"auth/session.rs"`, "changed_files"},
		{"subset_of_passes_when_all_elements_in_reference", `{subset_of: "$.context.declared_features"}`, `{declared_features: [auth, billing, search, admin]}`,
			`["auth", "search"]`, ""},
		{"subset_of_rejects_element_not_in_reference", `{subset_of: "$.context.declared_features"}`, `{declared_features: [auth, billing]}`,
			`["auth", "experimental_thing"]`, "experimental_thing"},
		{"subset_of_fail_fast_when_reference_unset", `{subset_of: "$.context.declared_features"}`, "{}", `["auth"]`, "declared_features"},
		{"multiple_constraint_kinds_compose_conjunctively", `{path_allowlist: {allow: ["modules/**"]}, subset_of: "$.context.enabled"}`, `{enabled: [modules/a, modules/b]}`,
			`["modules/a", "modules/c"]`, "modules/c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runChain(t, demoWorkflow(`    initialState: s
    initialContext: `+tc.context+`
    blackboard:
      changed_files: {constraint: `+tc.constraint+`}
    states:
      s:
        transitions:
          write: {target: done, actor: deterministic, output: {changed_files: {set: `+tc.value+`}}}
      done: {terminal: true}
`), nil)
			if tc.refused == "" {
				if res.Status != record.Succeeded {
					t.Fatalf("%s: %s", res.Status, res.Error)
				}
				return
			}
			if res.Status != record.Failed || res.State != "s" || !strings.Contains(res.Error, "changed_files") || !strings.Contains(res.Error, tc.refused) {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
			if _, written := res.Context["changed_files"]; written {
				t.Errorf("the refused value was written: %v", res.Context)
			}
		})
	}
	for name, tc := range map[string]struct{ constraint, says string }{
		"load_time_rejects_empty_allow":                     {`{path_allowlist: {allow: []}}`, "an empty allow: allows nothing"},
		"load_time_rejects_malformed_glob":                  {`{path_allowlist: {allow: ["["]}}`, `"[" is not a valid glob`},
		"load_time_rejects_unknown_constraint_kind":         {`{wat: value}`, `unknown constraint kind "wat"`},
		"load_time_rejects_subset_of_with_non_string_value": {`{subset_of: [not, a, path]}`, "subset_of must be a string"},
	} {
		t.Run(name, func(t *testing.T) {
			src := demoWorkflow(`    initialState: s
    blackboard:
      x: {constraint: ` + tc.constraint + `}
    states:
      s: {terminal: true}
`)
			_, err := chain.Parse("c.yaml", []byte(src), chain.Options{})
			if err == nil || !strings.Contains(err.Error(), `c.yaml:`) || !strings.Contains(err.Error(), `slot "x": constraint: `) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("%s: %v", tc.constraint, err)
			}
		})
	}
}
