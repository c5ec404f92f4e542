package run

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgateWildcardMappings ports mapping_array_expansion.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/mapping_array_expansion.rs), whose
// read_in_scopes cases are here a transition's output mappings: a [*]
// projects each element of the array before it, always a list; an
// element lacking the rest of the path is null in its place; a further
// [*] gives a list per element; a [*] over what is not an array, or a
// missing prefix, reads nothing (null). Plain JSON Path would flatten the
// nested lists, drop the missing fields and return a lone element as
// itself; a file's mappings mean what mcp-flowgate means.
func TestFlowgateWildcardMappings(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"wildcard_projects_each_element_field", "$.context.branches[*].ok", "[true,false,true]"},
		{"wildcard_with_no_suffix_returns_array_clone", "$.context.items[*]", "[1,2,3]"},
		{"wildcard_on_empty_array_returns_empty_array", "$.context.empty[*]", "[]"},
		{"wildcard_on_non_array_returns_none", "$.context.notarr[*].ok", "null"},
		{"wildcard_with_nested_suffix_projects_nested_field", "$.context.results[*].summary.score", "[90,85,95]"},
		{"nested_wildcards_recurse_through_inner_array", "$.context.groups[*].items[*].name", `[["a","b"],["c"]]`},
		{"non_wildcard_path_unchanged_after_extension", "$.context.summary.ok_count", "5"},
		{"wildcard_works_against_output_scope", "$.output.branches[*].ok", "[true,true,false]"},
		{"wildcard_on_missing_prefix_returns_none", "$.context.other[*].ok", "null"},
		{"missing_field_per_element_becomes_null_in_result", "$.context.branches[*].error", `[null,"boom",null]`},
		{"a list of one stays a list", "$.context.one[*].ok", "[true]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runChain(t, wf(`    initialContext:
      branches: [{ok: true}, {ok: false, error: boom}, {ok: true}]
      items: [1, 2, 3]
      empty: []
      notarr: {not: an array}
      results: [{summary: {score: 90}}, {summary: {score: 85}}, {summary: {score: 95}}]
      groups: [{items: [{name: a}, {name: b}]}, {items: [{name: c}]}]
      summary: {ok_count: 5}
      one: [{ok: true}]
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: cli, command: echo, args: ['{"branches": [{"ok": true}, {"ok": true}, {"ok": false}]}']}
            output: {got: "`+tc.path+`"}
      b: {terminal: true}
`), nil)
			if res.Status != record.Succeeded {
				t.Fatalf("%s: %s", res.Status, res.Error)
			}
			if got := asJSON(t, res.Context["got"]); got != tc.want {
				t.Errorf("%s = %s, want %s", tc.path, got, tc.want)
			}
		})
	}
}
