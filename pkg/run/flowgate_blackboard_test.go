package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgateTypedBlackboardSlots ports blackboard_typing.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/blackboard_typing.rs): a transition
// whose output mapping writes a value a typed blackboard slot refuses
// does not advance, and the error names the slot
// (typed_slot_mismatch_aborts_with_blackboard_type_error); a conforming
// value advances (typed_slot_conforming_value_advances_transition); a
// slot declared {} takes any value (bare_name_slot_accepts_any_value).
// mcp-flowgate answers the submit "rejected" and the instance may be
// submitted again; chainrun's run is failed at the state it left, the
// context as it was, with a retry link (reference 000's failure).
func TestFlowgateTypedBlackboardSlots(t *testing.T) {
	for _, tc := range []struct {
		name, slot, value string
		refused           bool
	}{
		{"typed_slot_mismatch_aborts_with_blackboard_type_error", "{type: integer}", `"not-an-integer"`, true},
		{"typed_slot_conforming_value_advances_transition", "{type: integer, minimum: 0}", "42", false},
		{"a conforming type, a value under the minimum", "{type: integer, minimum: 0}", "-1", true},
		{"bare_name_slot_accepts_any_value", "{}", `"string-is-fine"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := startFgWalk(t, demoWorkflow(`    initialState: lint
    blackboard:
      testCount: `+tc.slot+`
    states:
      lint:
        transitions:
          done:
            target: deployed
            actor: agent
            executor: {kind: cli, command: echo, args: ['{"value": `+tc.value+`}']}
            output: {testCount: "$.output.value"}
      deployed: {terminal: true}
`), nil)
			w.submit("done", nil)
			if !tc.refused {
				w.completed("deployed")
				if got := w.context("testCount"); got != strings.Trim(tc.value, " ") {
					t.Errorf("testCount %s", got)
				}
				return
			}
			if w.err != nil || w.res.Status != record.Failed || w.res.State != "lint" || !strings.Contains(w.res.Error, "testCount") {
				t.Fatalf("%v %s at %s: %s", w.err, w.res.Status, w.res.State, w.res.Error)
			}
			if _, written := w.res.Context["testCount"]; written {
				t.Errorf("the refused value was written: %v", w.res.Context)
			}
			if len(w.res.Links) != 1 || w.res.Links[0].Transition != "done" {
				t.Errorf("links %+v", w.res.Links)
			}
		})
	}
}
