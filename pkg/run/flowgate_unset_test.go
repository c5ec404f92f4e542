package run

import (
	"strings"
	"testing"
)

// TestFlowgateGuardOnAnUnsetSlot ports guard_unset_slot.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/guard_unset_slot.rs): a guard that reads
// a context key nothing set fails fast, naming the path, never a silent
// false (GUARD_UNSET_SLOT), and the run does not move; a key set to null
// is set; any_of passes on a clause that holds beside one that reads an
// unset key, and names the unset key when none holds; $.workflow.state
// is the run's state.
func TestFlowgateGuardOnAnUnsetSlot(t *testing.T) {
	for _, tc := range []struct {
		name, context, guard string
		refused              []string
	}{
		{"guard_reading_unset_slot_returns_guard_unset_slot_rejection", "", `{kind: expr, expr: "$.context.flag == true"}`, []string{"$.context.flag"}},
		{"explicitly_null_slot_is_not_unset", "{x: null}", `{kind: expr, expr: "$.context.x == null"}`, nil},
		{"any_of_with_unset_sibling_passes_if_another_clause_satisfies", "{ok: true}",
			`{kind: any_of, guards: [{kind: expr, expr: "$.context.missing == true"}, {kind: expr, expr: "$.context.ok == true"}]}`, nil},
		{"guard_can_read_workflow_state_id_and_version", "", `{kind: expr, expr: "$.workflow.state == 'draft'"}`, nil},
		{"any_of_with_only_unset_clauses_surfaces_unset_error", "",
			`{kind: any_of, guards: [{kind: expr, expr: "$.context.missing_a == true"}, {kind: expr, expr: "$.context.missing_b == true"}]}`,
			[]string{"$.context.missing_a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := demoWorkflow(`    initialState: draft
` + map[bool]string{true: "    initialContext: " + tc.context + "\n"}[tc.context != ""] + `    states:
      draft:
        transitions:
          submit: {target: done, actor: agent, guards: [` + tc.guard + `]}
      done: {terminal: true}
`)
			w := startFgWalk(t, src, nil)
			before := len(w.j.transitions)
			w.submit("submit", nil)
			if tc.refused == nil {
				w.completed("done")
				return
			}
			if w.err == nil {
				t.Fatalf("--take submit: %s at %s", w.res.Status, w.res.State)
			}
			for _, want := range append(tc.refused, "unset") {
				if !strings.Contains(w.err.Error(), want) {
					t.Errorf("the refusal does not name %q: %v", want, w.err)
				}
			}
			if len(w.j.transitions) != before || w.res.State != "draft" {
				t.Errorf("the run moved: at %s, %d records", w.res.State, len(w.j.transitions)-before)
			}
		})
	}
}
