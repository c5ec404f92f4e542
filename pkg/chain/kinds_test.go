package chain

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// TestUnknownKindFirst: a step of a kind that does not exist is reported
// by its kind, with the closest one, and never by the fields that kind
// would have had; the rest of the file is still validated.
func TestUnknownKindFirst(t *testing.T) {
	const wf = "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: a\n"
	cases := []struct {
		name, src string
		want      []string
	}{
		{"type with its fields", "name: c\nsteps:\n  - id: a\n    beam: [x, y]\n    type: teleport\n",
			[]string{`c.yaml:5:5: step "a": unknown type "teleport"; types are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`}},
		{"close to a kind", "name: c\nsteps:\n  - {id: a, type: shel, command: echo, colour: red}\n",
			[]string{`c.yaml:3:13: step "a": unknown type "shel" (did you mean shell?); types are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`}},
		{"fields of bad type too", "name: c\nsteps:\n  - {id: a, type: teleport, retry: lots}\n",
			[]string{`c.yaml:3:13: step "a": unknown type "teleport"; types are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`}},
		{"with other findings", "name: c\nsteps:\n  - {id: a, type: teleport, beam: [x]}\n  - {id: b, type: cli}\n",
			[]string{`c.yaml:3:13: step "a": unknown type "teleport"; types are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`,
				`c.yaml:4:5: step "b": a cli step needs command (with args) or run (a script)`}},
		{"without an id", "name: c\nsteps:\n  - {type: teleport, beam: [x]}\n",
			[]string{`c.yaml:3:5: step: id is required`, `c.yaml:3:6: step: unknown type "teleport"; types are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`}},
		{"executor", wf + "            executor: {kind: clii, beam: [x]}\n",
			[]string{`c.yaml:10:24: transition "go" executor: unknown kind "clii" (did you mean cli?); kinds are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`}},
		{"executor written as type", wf + "            executor: {type: tranform, exp: x}\n",
			[]string{`c.yaml:10:24: transition "go" executor: unknown kind "tranform" (did you mean transform?); kinds are agent, cli, shell, http, rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, router, evaluator, gate, loop, merge, subchain, debate, webhook, browser, mcp, structural_analysis, dry_run, registry`}},
		{"tool", "name: c\ntools:\n  t: {executor: {kind: grpc, service: x}}\nsteps:\n  - {id: a, prompt: hi, tools: [t]}\n",
			[]string{`c.yaml:3:18: tool "t" executor: unknown kind "grpc"; kinds are cli, shell, http, rest, transform, file`}},
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

// TestKindsAreDerived: the keys each kind accepts, the owners a misplaced
// field is sent to and the model-only fields come from the kind units.
func TestKindsAreDerived(t *testing.T) {
	if got, want := Kinds(), []string{"agent", "cli", "shell", "http", "rest", "transform", "file", "human", "chain", "noop", "script", "parallel", "pipeline", "workflow", "router", "evaluator", "gate", "loop", "merge", "subchain", "debate", "webhook", "browser", "mcp", "structural_analysis", "dry_run", "registry"}; !slices.Equal(got, want) {
		t.Errorf("Kinds() = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		field  string
		owners []string
		model  bool
	}{
		{"cwd", []string{"agent", "cli", "file", "script"}, false},
		{"prompt", []string{"agent", "transform", "human", "gate", "loop", "merge", "subchain", "debate", "webhook", "browser"}, false},
		{"model", []string{"agent", "loop", "merge", "debate", "browser"}, true},
		{"completion", []string{"agent"}, true},
		{"url", []string{"http", "webhook", "browser"}, false},
		{"with", []string{"chain", "subchain"}, false},
		{"retry", nil, false},
	} {
		if got := fieldOwners(tc.field); !slices.Equal(got, tc.owners) {
			t.Errorf("owners of %s = %v, want %v", tc.field, got, tc.owners)
		}
		if got := modelOnly(tc.field); got != tc.model {
			t.Errorf("modelOnly(%s) = %v", tc.field, got)
		}
	}
	if !fieldAllowed(KindCLI, "retry") || fieldAllowed(KindCLI, "url") || !fieldAllowed(KindHuman, "prompt") {
		t.Error("fieldAllowed does not follow the units")
	}
	// every key of a kind's body is a key of Step, so the decoder reads it
	all := stepKeySet()
	for _, u := range Units() {
		for _, k := range u.Also {
			if all.ByKey[k] == nil {
				t.Errorf("%s accepts %s, which no body declares", u.Kind, k)
			}
		}
		if u.Body == nil {
			continue
		}
		for _, f := range yamlpos.FieldsOf(u.Body).List {
			if all.ByKey[f.Key] == nil {
				t.Errorf("%s body field %s is not embedded in Step", u.Kind, f.Key)
			}
		}
	}
}
