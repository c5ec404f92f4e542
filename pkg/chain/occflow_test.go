package chain

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestOCCFlowKindsBadInput: every bad router, evaluator and gate field is
// a validation error naming the step, the field and its line.
func TestOCCFlowKindsBadInput(t *testing.T) {
	const head = "name: c\nsteps:\n  - {id: src, model: openai/m, prompt: x, output_var: draft}\n"
	const tail = "  - {id: after, model: openai/m, prompt: x, depends_on: [r]}\n"
	for _, tc := range []struct{ name, src, want string }{
		{"router without routes", head + "  - {id: r, type: router, prompt: pick}\n",
			`c.yaml:4:5: step "r": routes is required for a router step`},
		{"router without prompt", head + "  - {id: r, type: router, routes: {a: [after]}}\n" + tail,
			`c.yaml:4:5: step "r": prompt is required for a router step`},
		{"default_route not a route", head + "  - {id: r, type: router, prompt: pick, routes: {a: [after]}, default_route: b}\n" + tail,
			`c.yaml:4:63: step "r": default_route "b" is not one of its routes (a)`},
		{"route names no step", head + "  - {id: r, type: router, prompt: pick, routes: {a: [aftr]}}\n" + tail,
			`c.yaml:4:41: step "r": route a names "aftr", which is not a step (did you mean after?)`},
		{"route step not after the router", head + "  - {id: r, type: router, prompt: pick, routes: {a: [src]}}\n",
			`c.yaml:4:41: step "r": route a names step "src", which does not depend on the router: add depends_on: [r] to it`},
		{"router field on a cli step", head + "  - {id: r, type: cli, command: echo, routes: {a: [src]}}\n",
			`c.yaml:4:39: step "r": routes does not belong to a cli step (it is a field of router steps)`},
		{"evaluator without input_var", head + "  - {id: e, type: evaluator, criteria: good, depends_on: [src]}\n",
			`c.yaml:4:5: step "e": input_var is required for an evaluator step`},
		{"evaluator without criteria", head + "  - {id: e, type: evaluator, input_var: draft, depends_on: [src]}\n",
			`c.yaml:4:5: step "e": criteria is required for an evaluator step`},
		{"evaluator input_var unknown", head + "  - {id: e, type: evaluator, input_var: drat, criteria: good, depends_on: [src]}\n",
			`c.yaml:4:30: step "e": input_var: {drat}`},
		{"evaluator input_var not a dependency", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good}\n",
			`c.yaml:4:30: step "e": input_var: {draft}`},
		{"on_fail value", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], on_fail: panic}\n",
			`c.yaml:4:83: step "e": on_fail "panic" is not continue, skip, error or retry`},
		{"retry without target", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], on_fail: retry}\n",
			`c.yaml:4:83: step "e": on_fail: retry needs retry_target`},
		{"target without retry", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], retry_target: src}\n",
			`c.yaml:4:83: step "e": retry_target is used by on_fail: retry only`},
		{"target not upstream", head + "  - {id: other, model: openai/m, prompt: x}\n  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], on_fail: retry, retry_target: other}\n",
			`c.yaml:5:99: step "e": retry_target "other" is not a step it depends on`},
		{"target not a step", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], on_fail: retry, retry_target: sr}\n",
			`c.yaml:4:99: step "e": retry_target "sr" is not a step (did you mean src?)`},
		{"threshold without scoring", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], eval_threshold: 5}\n",
			`c.yaml:4:83: step "e": eval_threshold applies to a score`},
		{"threshold out of range", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], eval_scoring: true, eval_threshold: 11}\n",
			`c.yaml:4:103: step "e": eval_threshold 11 is not a score from 0 to 10`},
		{"negative max_retries", head + "  - {id: e, type: evaluator, input_var: draft, criteria: good, depends_on: [src], on_fail: retry, retry_target: src, max_retries: -1}\n",
			`c.yaml:4:118: step "e": max_retries must be from 0 to 1000`},
		{"gate on_timeout value", head + "  - {id: g, type: gate, timeout_hours: 1, on_timeout: maybe}\n",
			`c.yaml:4:43: step "g": on_timeout "maybe" is not reject, error, approve or skip`},
		{"gate on_timeout without timeout", head + "  - {id: g, type: gate, on_timeout: approve}\n",
			`c.yaml:4:25: step "g": on_timeout needs timeout_hours`},
		{"gate negative timeout", head + "  - {id: g, type: gate, timeout_hours: -2}\n",
			`c.yaml:4:25: step "g": timeout_hours must be a positive number of hours`},
		{"gate bad auto-approve", head + "  - {id: g, type: gate, gate_auto_approve_if: 'nope == 1', depends_on: [src]}\n",
			`c.yaml:4:25: step "g": gate_auto_approve_if "nope == 1"`},
		{"gate model field", head + "  - {id: g, type: gate, model: claude-sonnet-4-6}\n",
			`c.yaml:4:25: step "g": model configures a model call; a gate step runs no model`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := findings(t, tc.src)
			if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
				t.Errorf("got\n%s\nwant a line beginning\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

// TestOCCFlowKindsInWorkflows: router, evaluator retries and gates select
// or pause DAG steps; a workflow refuses them, naming why.
func TestOCCFlowKindsInWorkflows(t *testing.T) {
	const wf = "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: a\n"
	_, err := Parse("c.yaml", []byte(wf+"            executor: {kind: gate, prompt: ok?}\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), `a gate step pauses a DAG chain; in a workflow, a transition with actor: human is the decision point`) {
		t.Errorf("gate in a workflow: %v", err)
	}
}

// findings are the diagnostics of c.yaml holding src, which must not load.
func findings(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("c.yaml", []byte(src), Options{})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error, got %v", err)
	}
	var got []string
	for _, d := range ve.Diagnostics {
		got = append(got, d.String())
	}
	return got
}
