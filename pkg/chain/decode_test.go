package chain

import (
	"slices"
	"testing"
)

// TestWalk pins what the one mapping walker reports, for steps and for
// the workflow mappings: positions, unknown keys with suggestions, keys
// given twice, type/kind written both ways, wrong types at their value.
func TestWalk(t *testing.T) {
	const wf = "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n"
	cases := []struct {
		name, src string
		want      []string
	}{
		{"type and kind", "name: c\nsteps:\n  - {id: a, type: cli, kind: cli, run: x}\n",
			[]string{`c.yaml:3:24: step "a": set type or kind, not both`}},
		{"kind and type", "name: c\nsteps:\n  - {id: a, kind: cli, type: cli, run: x}\n",
			[]string{`c.yaml:3:24: step "a": set type or kind, not both`}},
		{"unknown step key", "name: c\nsteps:\n  - {id: a, type: cli, comand: echo}\n",
			[]string{`c.yaml:3:24: step "a": unknown field "comand" (did you mean command?)`}},
		{"wrong type", "name: c\nsteps:\n  - {id: a, type: cli, run: x, timeout_ms: [1]}\n",
			[]string{`c.yaml:3:44: step "a": timeout_ms: a list is given here; a whole number is expected`}},
		{"given twice", "name: c\nsteps:\n  - id: a\n    run: x\n    type: cli\n    run: y\n",
			[]string{`c.yaml:6:5: step "a": run is given twice (first at line 4)`}},
		{"unknown chain key", "name: c\nstep: []\n",
			[]string{`c.yaml:2:1: unknown field "step" (did you mean steps?)`}},
		{"misspelt state key", wf + "        terminal: true\n        gaol: x\n        outcome: gone\n",
			[]string{`c.yaml:8:9: state "a": unknown field "gaol" (did you mean goal?)`,
				`c.yaml:9:9: state "a": outcome is succeeded, failed or cancelled, not "gone"`}},
		// a mapping of any values is "a mapping", never Go's type name
		{"context not a mapping", "workflows:\n  w:\n    initialState: a\n    initialContext: x\n    states: {a: {terminal: true}}\n",
			[]string{"c.yaml:4:21: workflow \"w\": initialContext: `x` is text here; a mapping is expected"}},
		{"schema a list", "workflows:\n  w:\n    initialState: a\n    inputSchema: [x]\n    states: {a: {terminal: true}}\n",
			[]string{"c.yaml:4:18: a list is given here; a mapping is expected"}},
		{"state key twice", wf + "        terminal: true\n        terminal: false\n",
			[]string{`c.yaml:8:9: state "a": terminal is given twice (first at line 7)`}},
		{"unknown file key", "version: '1'\nworkflow: {}\nworkflows:\n  w: {initialState: a, states: {a: {terminal: true}}}\n",
			[]string{`c.yaml:2:1: unknown field "workflow" (did you mean workflows?) (a workflow file holds version and workflows)`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := findings(t, tc.src)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestWalkReadsEveryShape: scalars for one-item lists, merge keys, x-
// keys and kind for type all reach the step.
func TestWalkReadsEveryShape(t *testing.T) {
	l := mustParse(t, `name: c
x-base: &base {type: cli, retry: 2}
steps:
  - {id: a, <<: *base, run: echo a, output_var: va}
  - {id: b, kind: transform, depends_on: a, expr: 'va + "!"', output_var: vb}
output: vb
`)
	a, b := l.Chain.Step("a"), l.Chain.Step("b")
	if a.Kind != KindCLI || a.Attempts() != 2 || a.At("retry").Line != 2 {
		t.Errorf("merged step: kind %s, attempts %d, retry at %v", a.Kind, a.Attempts(), a.At("retry"))
	}
	if b.Kind != KindTransform || !slices.Equal(b.DependsOn, []string{"a"}) || b.At("type").Col != 13 {
		t.Errorf("step b: kind %s, depends_on %v, type at %v", b.Kind, b.DependsOn, b.At("type"))
	}
}
