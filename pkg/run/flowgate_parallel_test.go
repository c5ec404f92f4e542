package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgateParallelExecutor ports parallel_executor.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-executors/tests/parallel_executor.rs), each case
// named after its test: the joins (all, any, at_least, percent with its
// ceiling, expression), on_branch_failure: continue, a for_each fan-out
// (empty: a vacuous success), and the configurations refused when the
// file loads. A failing branch is a command that exits 1 (mcp-flowgate's
// nonexistent_kind, which chainrun refuses at load).
func TestFlowgateParallelExecutor(t *testing.T) {
	for _, tc := range []struct {
		name, branches, join, extra string
		ok                          bool
		okCount                     int
	}{
		{"join_all_with_two_noop_branches_succeeds", "ok ok", "all", "", true, 2},
		{"max_concurrency_caps_in_flight_count", "ok ok ok ok ok", "all", ", max_concurrency: 2", true, 5},
		{"join_any_returns_on_first_success", "ok ok ok", "any", "", true, -1},
		{"join_at_least_3_succeeds_with_3_of_5", "ok ok ok ok ok", "{at_least: 3}", "", true, -1},
		{"on_branch_failure_continue_drains_all_branches", "ok bad ok", "all", ", on_branch_failure: continue", false, -1},
		{"join_percent_threshold_met_by_majority_succeeds", "ok ok ok bad", "{percent: 51}", ", on_branch_failure: continue", true, 3},
		{"join_percent_threshold_not_met_returns_threshold_failure", "ok bad bad bad", "{percent: 75}", ", on_branch_failure: continue", false, -1},
		{"join_percent_zero_succeeds_with_no_branches_passing", "bad bad", "{percent: 0}", ", on_branch_failure: continue", true, 0},
		{"join_percent_uses_ceiling_division_for_threshold", "ok ok bad", "{percent: 51}", ", on_branch_failure: continue", true, 2},
		{"join_expression_truthy_path_succeeds", "ok ok", `{expression: "$.ok_count"}`, ", on_branch_failure: continue", true, 2},
		{"join_expression_binary_comparison_satisfied_succeeds", "ok ok ok", `{expression: "$.ok_count >= 3"}`, ", on_branch_failure: continue", true, 3},
		{"join_expression_binary_comparison_unsatisfied_fails", "ok ok", `{expression: "$.ok_count >= 3"}`, ", on_branch_failure: continue", false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var branches []string
			for _, b := range strings.Fields(tc.branches) {
				exit := map[string]string{"ok": "0", "bad": "1"}[b]
				branches = append(branches, `{kind: cli, command: sh, args: ["-c", "exit `+exit+`"]}`)
			}
			res := runChain(t, wf(`    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: parallel, branches: [`+strings.Join(branches, ", ")+`], join: `+tc.join+tc.extra+`}
            output: {summary: "$.output.summary"}
      b: {terminal: true}
`), nil)
			if !tc.ok {
				if res.Status != record.Failed || res.State != "a" {
					t.Fatalf("want the transition failed: %s at %s: %s", res.Status, res.State, res.Error)
				}
				return
			}
			if res.Status != record.Succeeded {
				t.Fatalf("%s: %s", res.Status, res.Error)
			}
			summary, _ := res.Context["summary"].(map[string]any)
			if summary["verdict"] != "succeeded" {
				t.Errorf("summary %v", summary)
			}
			if tc.okCount >= 0 && asJSON(t, summary["ok_count"]) != asJSON(t, tc.okCount) {
				t.Errorf("ok_count %v, want %d", summary["ok_count"], tc.okCount)
			}
		})
	}
	for _, tc := range []struct {
		name, items, where string
		n                  int
	}{
		{"dynamic_for_each_expands_array_into_branches", "[a, b, c]", "", 3},
		{"empty_for_each_returns_vacuous_success", "[]", "", 0},
		{"for_each_where_filters_out_falsy_elements_before_fan_out", "[1, 2, 3, 4, 5]", "$.value >= 3", 3},
		{"for_each_where_empty_after_filter_is_vacuous_success", "[1, 2, 3]", "$.value > 100", 0},
		{"a bare where keeps the truthy items", `[a, "", b, 0, 7]`, "$.value", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			where := ""
			if tc.where != "" {
				where = `, where: "` + tc.where + `"`
			}
			res := runChain(t, wf(`    initialContext: {queries: `+tc.items+`}
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: parallel, branches: {for_each: "$.context.queries"`+where+`, do: {kind: noop}}, join: all}
            output: {summary: "$.output.summary"}
      b: {terminal: true}
`), nil)
			n := tc.n
			summary, _ := res.Context["summary"].(map[string]any)
			if res.Status != record.Succeeded || asJSON(t, summary["n"]) != asJSON(t, n) || asJSON(t, summary["ok_count"]) != asJSON(t, n) || summary["verdict"] != "succeeded" {
				t.Fatalf("%s %v: %s", res.Status, summary, res.Error)
			}
		})
	}
	twelve := strings.TrimSuffix(strings.Repeat("{kind: noop}, ", 12), ", ")
	for name, executor := range map[string]string{
		"ten_plus_branches_without_max_concurrency_rejects": `{kind: parallel, branches: [` + twelve + `], join: all}`,
		"join_percent_rejects_value_above_100":              `{kind: parallel, branches: [{kind: noop}], join: {percent: 150}}`,
		"join_expression_rejects_empty_string":              `{kind: parallel, branches: [{kind: noop}], join: {expression: ""}}`,
		"for_each_where_rejects_empty_predicate":            `{kind: parallel, branches: {for_each: "$.context.items", where: "", do: {kind: noop}}, join: all}`,
	} {
		t.Run(name, func(t *testing.T) {
			src := wf(`    states:
      a:
        transitions:
          go: {target: b, actor: deterministic, executor: ` + executor + `}
      b: {terminal: true}
`)
			if _, err := chain.Parse("p.yaml", []byte(src), chain.Options{}); err == nil || !strings.Contains(err.Error(), "p.yaml:") {
				t.Errorf("loads: %v", err)
			}
		})
	}
}
