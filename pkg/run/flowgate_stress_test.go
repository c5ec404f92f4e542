package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// stressSource names where the cases below come from:
// github.com/matt-cochran/mcp-flowgate, commit 443aa7a (unchanged since
// 6c28a94 but for formatting),
// crates/mcp-flowgate-core/tests/stress_guards_mapping.rs; each case
// names its test. Their transitions name no actor: mcp-flowgate's default,
// agent, as chainrun's is, so each is a decision the test submits.

// fgWalk is a run of a workflow that goes on call after call, as
// mcp-flowgate's Scenario does: start, then submit.
type fgWalk struct {
	t   *testing.T
	src string
	in  map[string]string
	j   *memJournal
	res *record.Result
	err error
}

func startFgWalk(t *testing.T, src string, inputs map[string]string) *fgWalk {
	t.Helper()
	w := &fgWalk{t: t, src: src, in: inputs, j: &memJournal{}}
	w.res, w.err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: inputs, Journal: w.j})
	if w.err != nil {
		t.Fatalf("start: %v", w.err)
	}
	return w
}

// submit takes a transition with arguments, as resume does (the run's
// inputs given again); a refusal leaves the run where it was, in w.err.
func (w *fgWalk) submit(take string, args map[string]any) {
	w.t.Helper()
	res, err := New(WithDir(w.t.TempDir())).Run(context.Background(), Request{Chain: load(w.t, w.src), Inputs: w.in, History: w.j.transitions, Journal: w.j, Take: take, Args: args})
	w.err = err
	if err == nil {
		w.res = res
	}
}

// guardRejected is mcp-flowgate's GUARD_REJECTED: the take is refused,
// naming the guard that does not hold, and the run stays where it was.
func (w *fgWalk) guardRejected(take string) {
	w.t.Helper()
	var te *response.TakeError
	if !errors.As(w.err, &te) || te.Take != take || !strings.Contains(te.Why, "guard") {
		w.t.Fatalf("--take %s: want a guard's refusal, got %v", take, w.err)
	}
}

func (w *fgWalk) completed(state string) {
	w.t.Helper()
	if w.err != nil || w.res.Status != record.Succeeded || w.res.State != state {
		w.t.Fatalf("want completed at %s: %v %s at %s: %s", state, w.err, w.res.Status, w.res.State, w.res.Error)
	}
}

func (w *fgWalk) context(key string) string {
	w.t.Helper()
	return asJSON(w.t, w.res.Context[key])
}

// TestFlowgateStressGuardsAndMapping ports stress_guards_mapping.rs
// (see stressSource) case by case.
func TestFlowgateStressGuardsAndMapping(t *testing.T) {
	t.Run("s01_bounded_loop_counter", func(t *testing.T) {
		w := startFgWalk(t, wf(`    initialContext: {attempts: 0}
    states:
      a:
        transitions:
          remediate:
            target: a
            guards: [{kind: jsonpath, expr: "$.context.attempts < 3"}]
            executor: {kind: noop}
            output: {attempts: {add: ["$.context.attempts", 1]}}
          escalate:
            target: escalated
            guards: [{kind: jsonpath, expr: "$.context.attempts >= 3"}]
            executor: {kind: noop}
      escalated: {terminal: true}
`), nil)
		if w.context("attempts") != "0" {
			t.Fatalf("attempts %s", w.context("attempts"))
		}
		for i := 1; i <= 3; i++ {
			w.submit("remediate", nil)
			if w.err != nil || w.context("attempts") != string(rune('0'+i)) || w.res.State != "a" {
				t.Fatalf("remediate %d: %v attempts %s at %s", i, w.err, w.context("attempts"), w.res.State)
			}
		}
		w.submit("remediate", nil)
		w.guardRejected("remediate")
		w.submit("escalate", nil)
		w.completed("escalated")
	})

	// each submits one decision and reads what its mappings wrote
	for _, tc := range []struct {
		name, states string
		inputs       map[string]string
		take         string
		args         map[string]any
		want         string
	}{
		{"s02_schema_defaults_applied_to_arguments", `      a:
        transitions:
          go:
            target: done
            inputSchema:
              type: object
              required: [priority, ticket]
              properties:
                priority: {type: string, default: normal}
                ticket: {type: string}
              additionalProperties: false
            executor: {kind: noop}
            output: {priority: "$.arguments.priority", ticket: "$.arguments.ticket"}
`, nil, "go", map[string]any{"ticket": "T-1"}, `{"priority":"normal","ticket":"T-1"}`},
		{"s04_nested_schema_defaults", `      a:
        transitions:
          go:
            target: done
            inputSchema:
              type: object
              required: [request]
              properties:
                request:
                  type: object
                  properties:
                    priority: {type: string, default: normal}
                    channel: {type: string, default: email}
                    ticket: {type: string}
            executor: {kind: noop}
            output:
              priority: "$.arguments.request.priority"
              channel: "$.arguments.request.channel"
              ticket: "$.arguments.request.ticket"
`, nil, "go", map[string]any{"request": map[string]any{"ticket": "T-1"}}, `{"channel":"email","priority":"normal","ticket":"T-1"}`},
		{"s05_output_mapping_set_literal", `      a:
        transitions:
          mark_reviewed:
            target: done
            executor: {kind: noop}
            output: {status: {set: reviewed}, reviewer_count: {set: 1}}
`, nil, "mark_reviewed", nil, `{"reviewer_count":1,"status":"reviewed"}`},
		{"s06_output_mapping_reads_arguments_and_input", `      a:
        transitions:
          go:
            target: done
            executor: {kind: noop}
            output: {caller_note: "$.arguments.note", project: "$.workflow.input.project"}
`, map[string]string{"project": "cool-app"}, "go", map[string]any{"note": "shipping after lunch"}, `{"caller_note":"shipping after lunch","project":"cool-app"}`},
		{"s17_concat_in_output_mapping", `      a:
        transitions:
          go:
            target: done
            executor: {kind: noop}
            output:
              message: {concat: ["branch=", "$.arguments.branch", " (pr ", "$.arguments.pr", ")"]}
`, nil, "go", map[string]any{"branch": "feat/login", "pr": 42}, `{"message":"branch=feat/login (pr 42)"}`},
		{"s17b_concat_with_null_element", `      a:
        transitions:
          go:
            target: done
            executor: {kind: noop}
            output:
              message: {concat: ["before=", "$.arguments.missing", "=after"]}
`, nil, "go", nil, `{"message":"before=null=after"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := wf("    inputSchema:\n      type: object\n      properties: {project: {type: string}}\n    states:\n" + tc.states + "      done: {terminal: true}\n")
			w := startFgWalk(t, src, tc.inputs)
			w.submit(tc.take, tc.args)
			w.completed("done")
			if got := asJSON(t, w.res.Context); got != tc.want {
				t.Errorf("context\n got %s\nwant %s", got, tc.want)
			}
		})
	}

	// s11 and s12: the links a byGuards state offers are those whose
	// guards hold now; a state's linkFilter wins over the workflow's.
	for name, tc := range map[string]struct{ src, want string }{
		"s11_link_filter_byguards": {`    linkFilter: byGuards
    initialContext: {risk: 30}
    states:
      a:
        transitions:
          auto_approve: {target: done, guards: [{kind: expr, expr: "$.context.risk <= 50"}], executor: {kind: noop}}
          manual_review: {target: review, guards: [{kind: expr, expr: "$.context.risk > 50"}], executor: {kind: noop}}
      review: {terminal: true}
      done: {terminal: true}
`, "auto_approve"},
		"s12_link_filter_per_state_override": {`    linkFilter: all
    initialContext: {risk: 90}
    states:
      a:
        linkFilter: byGuards
        transitions:
          go_safe: {target: a, guards: [{kind: expr, expr: "$.context.risk < 50"}], executor: {kind: noop}}
          go_risky: {target: a, guards: [{kind: expr, expr: "$.context.risk >= 50"}], executor: {kind: noop}}
`, "go_risky"},
	} {
		t.Run(name, func(t *testing.T) {
			w := startFgWalk(t, wf(tc.src), nil)
			var rels []string
			for _, l := range w.res.Links {
				rels = append(rels, l.Transition)
			}
			if strings.Join(rels, ",") != tc.want {
				t.Errorf("links %v, want [%s]", rels, tc.want)
			}
		})
	}

	composite := `    initialContext: {tests_passed: true, coverage_dropped: COVERAGE}
    states:
      a:
        transitions:
          ship_when_all_clear:
            target: shipped
            guards:
              - kind: all_of
                guards:
                  - {kind: expr, expr: "$.context.tests_passed == true"}
                  - kind: not
                    guard: {kind: expr, expr: "$.context.coverage_dropped == true"}
            executor: {kind: noop}
          ship_when_any_emergency:
            target: shipped
            guards:
              - kind: any_of
                guards:
                  - {kind: expr, expr: "$.context.always_false == true"}
                  - {kind: expr, expr: "$.context.tests_passed == true"}
            executor: {kind: noop}
      shipped: {terminal: true}
`
	t.Run("s15_composite_guards", func(t *testing.T) {
		for _, take := range []string{"ship_when_all_clear", "ship_when_any_emergency"} {
			w := startFgWalk(t, wf(strings.Replace(composite, "COVERAGE", "false", 1)), nil)
			w.submit(take, nil)
			w.completed("shipped")
		}
	})
	t.Run("s15b_composite_guard_blocks_when_any_clause_fails", func(t *testing.T) {
		w := startFgWalk(t, wf(strings.Replace(composite, "COVERAGE", "true", 1)), nil)
		w.submit("ship_when_all_clear", nil)
		w.guardRejected("ship_when_all_clear")
	})

	for name, tc := range map[string]struct{ context, guards string }{
		"s13_jsonpath_string_and_bool_compare": {`{ok: true, status: ready}`,
			`[{kind: expr, expr: "$.context.ok == true"}, {kind: expr, expr: "$.context.status == 'ready'"}]`},
		"s13b_jsonpath_path_to_path_compare": {`{before: 5, after: 7}`,
			`[{kind: expr, expr: "$.context.after > $.context.before"}]`},
	} {
		t.Run(name, func(t *testing.T) {
			w := startFgWalk(t, wf(`    initialContext: `+tc.context+`
    states:
      a:
        transitions:
          go: {target: done, guards: `+tc.guards+`, executor: {kind: noop}}
      done: {terminal: true}
`), nil)
			w.submit("go", nil)
			w.completed("done")
		})
	}

	for name, tc := range map[string]struct {
		guard string
		arg   map[string]any
		pass  bool
	}{
		"s17c_starts_with_guard_passes":  {`$.arguments.branch starts_with 'feat/'`, map[string]any{"branch": "feat/login"}, true},
		"s17d_starts_with_guard_rejects": {`$.arguments.branch starts_with 'feat/'`, map[string]any{"branch": "fix/leak"}, false},
		"s17e_contains_guard_passes":     {`$.arguments.error contains 'timeout'`, map[string]any{"error": "upstream connection timeout after 30s"}, true},
		"s17f_contains_guard_rejects":    {`$.arguments.error contains 'timeout'`, map[string]any{"error": "not found"}, false},
	} {
		t.Run(name, func(t *testing.T) {
			w := startFgWalk(t, wf(`    states:
      a:
        transitions:
          ship: {target: done, guards: [{kind: expr, expr: "`+tc.guard+`"}], executor: {kind: noop}}
      done: {terminal: true}
`), nil)
			// before the arguments the guard reads are given, the run
			// waits at a, its warning naming the guard (chainrun's
			// default linkFilter, byGuards, lists no blocked link)
			if w.res.Status != record.Paused || w.res.State != "a" || !strings.Contains(strings.Join(w.res.Warnings, "\n"), "ship: guard 1") {
				t.Fatalf("%s at %s, warnings %v", w.res.Status, w.res.State, w.res.Warnings)
			}
			w.submit("ship", tc.arg)
			if tc.pass {
				w.completed("done")
			} else {
				w.guardRejected("ship")
			}
		})
	}
}
