package authoring

import (
	"slices"
	"strings"
	"testing"
)

// TestAnalyzeStructure: each of mcp-flowgate's structural rules finds what
// it is for and nothing else, at the location and with the words its
// executor uses; a candidate may be a value or its YAML or JSON text, a
// whole file or one bare workflow; what is not a definition is an error.
func TestAnalyzeStructure(t *testing.T) {
	const clean = "workflows:\n  demo:\n    initialState: s\n    blackboard: [count]\n    states:\n      s: {transitions: {go: {target: done}}}\n      done: {terminal: true}\n"
	cases := []struct {
		name, candidate string
		want            []string // rule severity location: message, in order
	}{
		{"well formed", clean, nil},
		{"bare workflow", "initialState: s\nstates:\n  s: {transitions: {go: {target: done}}}\n  done: {terminal: true}\n", nil},
		{"JSON text", `{"workflows": {"demo": {"initialState": "s", "states": {"s": {"transitions": {"go": {"target": "nowhere"}}}}}}}`,
			[]string{"UNDEFINED_TARGET error /workflows/demo/states/s/transitions/go/target: transition 'go' targets undefined state 'nowhere'"}},
		{"no transitions", "workflows:\n  demo:\n    initialState: s\n    states: {s: {terminal: true}}\n",
			[]string{"NO_TRANSITIONS error /workflows/demo: workflow 'demo' has zero transitions across all states"}},
		{"undefined target of a bare workflow", "initialState: s\nstates:\n  s: {transitions: {go: {target: nowhere}}}\n",
			[]string{"UNDEFINED_TARGET error /workflows/candidate/states/s/transitions/go/target: transition 'go' targets undefined state 'nowhere'"}},
		{"a state of no value is a state", "initialState: s\nstates:\n  s: {transitions: {go: {target: done}}}\n  done:\n", nil},
		{"dead state", "initialState: s\nstates:\n  s: {transitions: {go: {target: done}}}\n  done: {terminal: true}\n  orphan: {terminal: true}\n",
			[]string{"DEAD_STATE error /workflows/candidate/states/orphan: state 'orphan' has no inbound transition and is not the initial state"}},
		{"unguarded self-loop", "initialState: a\nstates:\n  a: {transitions: {loop: {target: a}, out: {target: b}}}\n  b: {terminal: true}\n",
			[]string{"CYCLE_DETECTED error /workflows/candidate/states/a: unguarded cycle in workflow 'candidate': a → a"}},
		{"unguarded cycle of two", "initialState: a\nstates:\n  a: {transitions: {go: {target: b}}}\n  b: {transitions: {back: {target: a}, out: {target: c}}}\n  c: {terminal: true}\n",
			[]string{"CYCLE_DETECTED error /workflows/candidate/states/a: unguarded cycle in workflow 'candidate': a → b → a",
				"CYCLE_DETECTED error /workflows/candidate/states/b: unguarded cycle in workflow 'candidate': b → a → b"}},
		{"guarded cycle", "initialState: a\nblackboard: [n]\nstates:\n  a: {transitions: {go: {target: b}}}\n  b: {transitions: {back: {target: a, guards: [{kind: expr, expr: '$.context.n < 3'}]}, out: {target: c}}}\n  c: {terminal: true}\n", nil},
		{"oversized state", "initialState: s\nblackboard: [x]\nstates:\n  s:\n    transitions:\n" + transitions(9) + "  done: {terminal: true}\n",
			[]string{"OVERSIZED_STATE warning /workflows/candidate/states/s: state 's' has 9 transitions (threshold: 8)"}},
		{"eight transitions are not too many", "initialState: s\nblackboard: [x]\nstates:\n  s:\n    transitions:\n" + transitions(8) + "  done: {terminal: true}\n", nil},
		{"undeclared slot", "initialState: s\nblackboard: {declared: {type: integer}}\nstates:\n  s: {transitions: {go: {target: done, guards: [{kind: expr, expr: '$.context.declared > 0 && $.context.missing-one == 1'}]}}}\n  done: {terminal: true}\n",
			[]string{"UNDECLARED_SLOT_READ error /workflows/candidate/states/s/transitions/go/guards/0: guard reads `$.context.missing-one` which is not declared in workflow blackboard"}},
		{"no blackboard declares nothing", "initialState: s\nstates:\n  s: {transitions: {go: {target: done, guards: [{kind: permission, permission: p}, {kind: expr, expr: '$.context.x'}]}}}\n  done: {terminal: true}\n",
			[]string{"UNDECLARED_SLOT_READ error /workflows/candidate/states/s/transitions/go/guards/1: guard reads `$.context.x` which is not declared in workflow blackboard"}},
		{"unblessed subject", "skills:\n  review.style.x: {verb: review, body: x}\n  nonsense.foo: {verb: review, body: x}\n",
			[]string{`UNBLESSED_SUBJECT_ROOT warning /skills/nonsense.foo: subject 'nonsense.foo' has unblessed first segment 'nonsense'; blessed roots: ["authoring", "debug", "deploy", "import", "lifecycle", "triage", "diagnose", "plan", "implement", "review", "refactor", "explain", "compose", "research", "summarize"]`}},
		{"no workflows", "skills: {}\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			issues, err := AnalyzeStructure(tc.candidate)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, is := range issues {
				got = append(got, is.Rule+" "+is.Severity+" "+is.Location+": "+is.Message)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func transitions(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("      t" + string(rune('a'+i)) + ": {target: done, guards: [{kind: expr, expr: '$.context.x > 0'}]}\n")
	}
	return b.String()
}

// TestAnalyzeStructureRefuses: a candidate that is not a definition is an
// error, never a pass with no issues.
func TestAnalyzeStructureRefuses(t *testing.T) {
	for _, tc := range []struct {
		candidate any
		want      string
	}{
		{"workflows: [a, b", "the definition is text that is not YAML or JSON"},
		{"just words", "the definition is text, not a workflow file or workflow (a mapping)"},
		{[]any{"a"}, "the definition is a list, not"},
		{3.5, "the definition is a number, not"},
		{true, "the definition is a boolean, not"},
		{nil, "the definition is null, not"},
	} {
		if _, err := AnalyzeStructure(tc.candidate); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.candidate, err, tc.want)
		}
	}
}

// TestEveryStructuralRuleFires is mcp-flowgate's self-check (SPEC §18.3):
// one candidate that breaks every rule gets an issue of every rule, so no
// rule can silently stop running. The same candidate gives the same
// issues in the same order every time.
func TestEveryStructuralRuleFires(t *testing.T) {
	candidate := map[string]any{
		"skills": map[string]any{"nonsense.foo.bar": map[string]any{"verb": "review", "body": "x"}},
		"workflows": map[string]any{
			"no_trans": map[string]any{"initialState": "s", "states": map[string]any{"s": map[string]any{"terminal": true}}},
			"kitchen_sink": map[string]any{
				"initialState": "start",
				"blackboard":   []any{"declared"},
				"states": map[string]any{
					"orphaned": map[string]any{"terminal": true},
					"start": map[string]any{"transitions": func() map[string]any {
						ts := map[string]any{
							"to_missing":     map[string]any{"target": "nowhere"},
							"loop_unguarded": map[string]any{"target": "start"},
							"read_missing":   map[string]any{"target": "start", "guards": []any{map[string]any{"kind": "expr", "expr": "$.context.undeclared > 0"}}},
						}
						for i := range 7 {
							ts["t"+string(rune('1'+i))] = map[string]any{"target": "start", "guards": []any{map[string]any{"kind": "expr", "expr": "$.context.declared > 0"}}}
						}
						return ts
					}()},
				},
			},
		},
	}
	first, err := AnalyzeStructure(candidate)
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range StructuralRules {
		if !slices.ContainsFunc(first, func(is StructuralIssue) bool { return is.Rule == rule }) {
			t.Errorf("no %s issue in %v", rule, first)
		}
	}
	for range 20 {
		again, _ := AnalyzeStructure(candidate)
		if !slices.Equal(again, first) {
			t.Fatalf("the issues changed:\n%v\n%v", first, again)
		}
	}
}
