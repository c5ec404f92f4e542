package chain

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestOCCFlowKindsLoad: OCC's router, evaluator and gate steps load as
// written, OCC's code-review chain among them.
func TestOCCFlowKindsLoad(t *testing.T) {
	src, err := os.ReadFile("testdata/occ/code-review.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse("code-review.yaml", src, Options{})
	if err != nil {
		t.Fatalf("OCC's code-review: %v", err)
	}
	c := l.Chains[0]
	r := c.Step("classify")
	if r.Kind != KindRouter || r.Router().DefaultRoute != "fullstack" || len(r.Router().Routes) != 5 || r.Kind.Deterministic() {
		t.Errorf("classify = %s, default %q, %d routes", r.Kind, r.Router().DefaultRoute, len(r.Router().Routes))
	}
	e := c.Step("evaluate_quality")
	if e.Kind != KindEvaluator || !e.Evaluator().EvalScoring || e.Threshold() != 4 || e.Evaluator().OnFail != OnFailSkip || e.Retries() != 0 {
		t.Errorf("evaluate_quality = %+v", *e.Evaluator())
	}
	if !strings.Contains(e.C().Prompt.Refs()[0].Raw, "{security_review}") {
		t.Errorf("the evaluation prompt reads %v", e.C().Prompt.Refs())
	}
	g := mustParse(t, `
name: g
steps:
  - {id: build, type: transform, operation: template, template_str: "no", output_var: built}
  - id: ok
    type: gate
    prompt: "Ship {built}?"
    depends_on: [build]
    timeout_hours: 1.5
    on_timeout: approve
    gate_auto_approve_if: '{built} == "yes"'
`).Chains[0].Step("ok")
	if g.Kind != KindGate || g.GateTimeout().Minutes() != 90 || g.TimeoutDecision() != GateApprove || g.C().AutoApprove == nil {
		t.Errorf("gate = %+v", *g.Gate())
	}
}

// TestPickRoute: the whole answer names a route, else the route named
// earliest in it, else default_route.
func TestPickRoute(t *testing.T) {
	s := &Step{}
	Own[RouterFields](s).Routes = map[string][]string{"frontend": nil, "backend": nil, "fullstack": nil, "end": nil}
	for _, tc := range []struct{ answer, route, how string }{
		{"backend", "backend", "exact"},
		{"  **Backend**.\n", "backend", "exact"},
		{"It is a fullstack app, not just backend", "fullstack", "named in the answer"},
		{"frontend", "frontend", "exact"},
		{"the backend", "backend", "named in the answer"},
		{"none of these", "", ""},
	} {
		route, how, ok := s.PickRoute(tc.answer)
		if route != tc.route || how != tc.how || ok != (tc.route != "") {
			t.Errorf("PickRoute(%q) = %q, %q, %v; want %q, %q", tc.answer, route, how, ok, tc.route, tc.how)
		}
	}
	Own[RouterFields](s).DefaultRoute = "fullstack"
	if route, how, _ := s.PickRoute("dunno"); route != "fullstack" || how != "default_route" {
		t.Errorf("default: %q %q", route, how)
	}
	if got := s.Unselected("backend"); len(got) != 0 {
		t.Errorf("Unselected = %v", got)
	}
	Own[RouterFields](s).Routes = map[string][]string{"a": {"x", "y"}, "b": {"y", "z"}}
	if got := s.Unselected("a"); !slices.Equal(got, []string{"z"}) {
		t.Errorf("Unselected(a) = %v", got)
	}
}

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
