package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestFlowgateGovernanceInvariants ports mcp-flowgate's governance
// invariants (github.com/matt-cochran/mcp-flowgate):
// crates/mcp-flowgate-core/tests/invariants_governance.rs at 443aa7a
// (invariant_4_executor_failure_yields_failed_not_advanced_state,
// invariant_5_invalid_transitions_return_current_links,
// invariant_8_terminal_state_has_no_links,
// invariant_10_unknown_transition_does_not_invoke_executor) and
// invariants.rs before 0063210 (invariant_2_input_schema_is_validated_before_executor,
// written there against a proxy tool, here a transition's inputSchema;
// invariant_3_guards_run_before_executor), on its governed_config: open
// --approve [permission demo.approve]--> done. The executor counts its
// runs (a command appending a line). invariant_6/7 (expectedVersion) are
// the MCP server's take_transition expected_version, not a run's.
func TestFlowgateGovernanceInvariants(t *testing.T) {
	approver := WithPrincipal(&chain.Principal{ID: "ann", Permissions: []string{"demo.approve"}})
	for _, tc := range []struct {
		name, exec string
		opts       []Option
		take       string
		args       map[string]any
		refused    string
		status     record.Status
		state      string
		runs       int
	}{
		{"invariant_2_input_schema_is_validated_before_executor", "COUNT", []Option{approver}, "approve", map[string]any{"msg": 42}, "argument msg: type: 42 has type", record.Paused, "open", 0},
		{"invariant_3_guards_run_before_executor", "COUNT", nil, "approve", map[string]any{"msg": "hi"}, "guard 1 (permission", record.Paused, "open", 0},
		{"invariant_4_executor_failure_yields_failed_not_advanced_state", "COUNT_FAIL", []Option{approver}, "approve", map[string]any{"msg": "hi"}, "", record.Failed, "open", 1},
		{"invariant_5_invalid_transitions_return_current_links", "COUNT", []Option{approver}, "definitely_not_a_thing", nil, "approve", record.Paused, "open", 0},
		{"invariant_8_terminal_state_has_no_links", "COUNT", []Option{approver}, "approve", map[string]any{"msg": "hi"}, "", record.Succeeded, "done", 1},
		{"invariant_10_unknown_transition_does_not_invoke_executor", "COUNT", nil, "nope", nil, `--take nope: the run is at state "open", which offers no transition now`, record.Paused, "open", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, runs := counted(t, `      open:
        transitions:
          approve:
            title: Approve
            target: done
            guards: [{kind: permission, permission: demo.approve}]
            inputSchema: {type: object, properties: {msg: {type: string}}}
            executor: `+tc.exec+`
      done: {terminal: true}
`)
			src = strings.Replace(src, "initialState: a", "initialState: open", 1)
			c := load(t, src)
			j := &memJournal{}
			opts := append([]Option{WithDir(t.TempDir())}, tc.opts...)
			res, err := New(opts...).Run(context.Background(), Request{Chain: c, Journal: j})
			if err != nil || res.Status != record.Paused || res.State != "open" {
				t.Fatalf("start: %v %+v", err, res)
			}
			res, err = New(opts...).Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j, Take: tc.take, Args: tc.args})
			if tc.refused != "" {
				var te *response.TakeError
				var ae *response.ArgError
				if err == nil || !(errors.As(err, &te) || errors.As(err, &ae)) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("--take %s: want a refusal naming %q, got %v", tc.take, tc.refused, err)
				}
				res, err = New(opts...).Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j})
			}
			if err != nil || res.Status != tc.status || res.State != tc.state {
				t.Fatalf("%v %s at %s: %s", err, res.Status, res.State, res.Error)
			}
			if tc.status == record.Succeeded && len(res.Links) != 0 {
				t.Errorf("a terminal state has links %+v", res.Links)
			}
			if runs() != tc.runs {
				t.Errorf("the executor ran %d times, want %d", runs(), tc.runs)
			}
		})
	}
}
