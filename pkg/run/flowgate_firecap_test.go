package run

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestFlowgateFireCap ports fire_cap.rs (github.com/matt-cochran/mcp-flowgate,
// commit 443aa7a, crates/mcp-flowgate-core/tests/fire_cap.rs; SPEC §29.6):
// a transition's max_fires_per_visit: N lets it fire N times while the
// run stays in its state (transition_with_max_fires_2_rejects_third_call:
// the third submit is TRANSITION_FIRE_CAP_EXCEEDED); leaving the state
// resets the count (fire_counter_resets_on_state_exit). Here the capped
// transition is a blocked link and a --take of it is refused naming the
// cap, the run staying where it was. lightweight_transition_emits_workflow_interaction_not_transition
// is an audit record's name (chainrun's event log records every
// transition alike): its cap holds here too. Before, the key was refused.
func TestFlowgateFireCap(t *testing.T) {
	t.Run("transition_with_max_fires_2_rejects_third_call", func(t *testing.T) {
		for _, limit := range []int{1, 2, 3} {
			w := startFgWalk(t, wf(`    states:
      a:
        goal: work
        transitions:
          retry: {target: a, actor: agent, max_fires_per_visit: `+string(rune('0'+limit))+`}
          finish: {target: done, actor: agent}
      done: {terminal: true}
`), nil)
			for i := 0; i < limit; i++ {
				w.submit("retry", nil)
				if w.err != nil || w.res.State != "a" {
					t.Fatalf("cap %d, fire %d: %v", limit, i+1, w.err)
				}
			}
			if slices.Contains(linkNames(w.res), "retry") {
				t.Errorf("cap %d reached: retry still offered: %v", limit, linkNames(w.res))
			}
			w.submit("retry", nil)
			capRefused(t, w, "retry", limit)
			w.submit("finish", nil)
			w.completed("done")
		}
	})
	t.Run("fire_counter_resets_on_state_exit", func(t *testing.T) {
		w := startFgWalk(t, wf(`    states:
      a:
        goal: loop
        transitions:
          loop_a: {target: a, max_fires_per_visit: 2}
          leave: {target: b}
      b:
        goal: back
        transitions:
          back: {target: a}
          end: {target: done}
      done: {terminal: true}
`), nil)
		for round := 0; round < 2; round++ {
			w.submit("loop_a", nil)
			w.submit("loop_a", nil)
			if w.err != nil || w.res.State != "a" {
				t.Fatalf("round %d: %v", round, w.err)
			}
			w.submit("loop_a", nil)
			capRefused(t, w, "loop_a", 2)
			w.submit("leave", nil)
			w.submit("back", nil)
			if w.err != nil || w.res.State != "a" || !slices.Contains(linkNames(w.res), "loop_a") {
				t.Fatalf("round %d: back in a, loop_a offered again: %v %v", round, w.err, linkNames(w.res))
			}
		}
	})
	t.Run("lightweight ask capped at 3", func(t *testing.T) {
		w := startFgWalk(t, wf(`    states:
      a:
        goal: ask or finish
        transitions:
          ask: {target: a, actor: human, purpose: ask, lightweight: true, max_fires_per_visit: 3}
          finish: {target: done, actor: human}
      done: {terminal: true}
`), nil)
		for range 3 {
			w.submit("ask", nil)
		}
		w.submit("ask", nil)
		capRefused(t, w, "ask", 3)
	})
	t.Run("a deterministic self-loop stops at its cap", func(t *testing.T) {
		res := runChain(t, wf(`    initialContext: {n: 0}
    states:
      a:
        transitions:
          tick: {target: a, actor: deterministic, max_fires_per_visit: 4, output: {n: {add: ["$.context.n", 1]}}}
`), nil)
		if asJSON(t, res.Context["n"]) != "4" || res.Status == record.Succeeded || !strings.Contains(res.Error, "max_fires_per_visit of 4 is reached") {
			t.Errorf("the loop ran %v times: %s %s", res.Context["n"], res.Status, res.Error)
		}
	})
}

// capRefused: the take of a transition at its cap is refused naming the
// cap, the run left where it was.
func capRefused(t *testing.T, w *fgWalk, take string, limit int) {
	t.Helper()
	var te *response.TakeError
	if !errors.As(w.err, &te) || te.Take != take || !strings.Contains(te.Why, "max_fires_per_visit of "+string(rune('0'+limit))+" is reached") || !strings.Contains(te.Why, "entered it: "+string(rune('0'+limit))) {
		t.Fatalf("--take %s past its cap %d: %v", take, limit, w.err)
	}
}
