package flowgate

import (
	"errors"
	"strings"
	"testing"
)

// TestFlowgateUnknownKeysWarn: mcp-flowgate reads a workflow definition
// as JSON and never denies a key it does not know
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/src/store.rs ConfigDefinitionStore::from_config
// keeps each definition whole; src/model.rs and src/runtime*.rs read the
// keys they know and no struct of a workflow has deny_unknown_fields), so
// a workflows: file whose workflow, state, transition or executor holds
// one loads (rule F4), with a warning at the key's line naming it, the
// known key it is close to and that it is ignored; a close misspelling
// says the key meant is not set. The file otherwise runs as written.
func TestFlowgateUnknownKeysWarn(t *testing.T) {
	cases := []struct {
		name, src string
		want      string // the warning, file:line:col included
	}{
		{"workflow", "workflows:\n  w:\n    initialState: a\n    owner: platform-team\n    states: {a: {terminal: true}}\n",
			`c.yaml:4:5: warning: workflow "w": unknown field "owner" ignored, as mcp-flowgate ignores it`},
		{"workflow typo", "workflows:\n  w:\n    initialState: a\n    maxChainDept: 3\n    states: {a: {terminal: true}}\n",
			`c.yaml:4:5: warning: workflow "w": unknown field "maxChainDept" ignored, as mcp-flowgate ignores it: did you mean maxChainDepth? As written, maxChainDepth is not set here`},
		{"state", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        terminal: true\n        color: green\n",
			`c.yaml:7:9: warning: state "a": unknown field "color" ignored, as mcp-flowgate ignores it`},
		{"state typo", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        terminal: true\n        guidence: read the log\n",
			`c.yaml:7:9: warning: state "a": unknown field "guidence" ignored, as mcp-flowgate ignores it: did you mean guidance? As written, guidance is not set here`},
		{"transition", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, actor: agent, priority: 2}\n      b: {terminal: true}\n",
			`c.yaml:7:41: warning: state "a": transition "go": unknown field "priority" ignored, as mcp-flowgate ignores it`},
		{"transition typo of a guard list", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            gaurds: [{kind: expr, expr: 'false'}]\n      b: {terminal: true}\n",
			`c.yaml:9:13: warning: state "a": transition "go": unknown field "gaurds" ignored, as mcp-flowgate ignores it: did you mean guards? As written, guards is not set here`},
		{"executor", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            executor: {kind: noop, cost_center: eng}\n      b: {terminal: true}\n",
			`c.yaml:10:36: warning: state "a": transition "go": executor: unknown field "cost_center" ignored, as mcp-flowgate ignores it`},
		{"state onEnter executor", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        onEnter: {executor: {kind: noop, retries_note: none}}\n        transitions: {go: {target: b}}\n      b: {terminal: true}\n",
			`c.yaml:6:42: warning: state "a": onEnter: executor: unknown field "retries_note" ignored, as mcp-flowgate ignores it`},
		// keys mcp-flowgate reads that chainrun does not apply are said
		// for what they are (runtime.rs, runtime_links.rs, validate.rs)
		{"a key mcp-flowgate reads: lightweight", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        goal: g\n        transitions:\n          ask: {target: a, actor: human, lightweight: true, purpose: ask}\n          go: {target: b}\n      b: {terminal: true}\n",
			`c.yaml:8:42: warning: state "a": transition "ask": lightweight: ignored: mcp-flowgate audits such a transition as an interaction`},
		{"a key mcp-flowgate reads: purpose", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        goal: g\n        transitions:\n          ask: {target: a, actor: human, lightweight: true, purpose: ask}\n          go: {target: b}\n      b: {terminal: true}\n",
			`c.yaml:8:61: warning: state "a": transition "ask": purpose: ignored: mcp-flowgate tags the transition's audit record`},
		{"a key mcp-flowgate reads: expects_contract_hash", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        goal: g\n        transitions:\n          go: {target: b, executor: {kind: noop, expects_contract_hash: sha256-x}}\n      b: {terminal: true}\n",
			`warning: state "a": transition "go": executor: expects_contract_hash: ignored: mcp-flowgate pins the contract hash`},
		{"pipeline step of an executor", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            executor:\n              kind: pipeline\n              steps: [{kind: noop, owner_team: first}]\n      b: {terminal: true}\n",
			`unknown field "owner_team" ignored, as mcp-flowgate ignores it`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("c.yaml", []byte(tc.src), Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var got []string
			for _, w := range l.Warnings {
				got = append(got, w.String())
			}
			if !strings.Contains(strings.Join(got, "\n"), tc.want) {
				t.Errorf("warnings\n%s\nhold no %q", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

// TestFlowgateUnknownKeysStayRefusedElsewhere: the warning is for the
// keys a workflow file's peer ignores. A known key whose value is wrong
// is still refused, and chainrun's own DAG chains (steps:) keep refusing
// a key they do not know, as before.
func TestFlowgateUnknownKeysStayRefusedElsewhere(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"DAG chain step", "name: c\nsteps:\n  - {id: a, type: cli, command: echo, colour: red}\n",
			`c.yaml:3:39: step "a": unknown field "colour"`},
		{"DAG chain key", "name: c\nstep: []\nsteps:\n  - {id: a, type: noop}\n",
			`c.yaml:2:1: unknown field "step" (did you mean steps?)`},
		{"known workflow key of the wrong type", "workflows:\n  w:\n    initialState: a\n    maxChainDepth: [3]\n    owner: x\n    states: {a: {terminal: true}}\n",
			`c.yaml:4:20: workflow "w": maxChainDepth: a list is given here; a whole number is expected`},
		{"known transition key of the wrong type", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: [b], tag: x}\n      b: {terminal: true}\n",
			`transition "go": target`},
		{"known executor key of the wrong type", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, executor: {kind: cli, command: echo, timeout_ms: soon, note: x}}\n      b: {terminal: true}\n",
			`timeout_ms`},
		{"a misspelt key leaves a required one missing", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {targt: b}\n      b: {terminal: true}\n",
			`transition "go"`},
	} {
		t.Run(tc.name, func(t *testing.T) { expectLoad(t, tc.src, tc.want) })
	}
}

// TestFlowgateMisspeltKeyExplainsARefusal: a file refused for a missing
// key lists, after its errors, the ignored keys close to one chainrun
// knows (a misspelt target, initialState or url is likely why), marked
// warnings; keys close to none are not repeated there.
func TestFlowgateMisspeltKeyExplainsARefusal(t *testing.T) {
	for _, tc := range []struct{ name, src, err, hint string }{
		{"target", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {targt: b, owner: x}\n      b: {terminal: true}\n",
			`c.yaml:7:11: transition "go": target is required`, `c.yaml:7:16: warning: state "a": transition "go": unknown field "targt" ignored, as mcp-flowgate ignores it: did you mean target?`},
		{"initialState", "workflows:\n  w:\n    intialState: a\n    states:\n      a: {terminal: true}\n",
			`initialState`, `c.yaml:3:5: warning: workflow "w": unknown field "intialState" ignored, as mcp-flowgate ignores it: did you mean initialState?`},
		{"executor url", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, executor: {kind: http, ulr: 'https://example.test'}}\n      b: {terminal: true}\n",
			`url is required`, `warning: state "a": transition "go": executor: unknown field "ulr" ignored, as mcp-flowgate ignores it: did you mean url?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src), Options{})
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("loads: %v", err)
			}
			last := ve.Diagnostics[len(ve.Diagnostics)-1]
			if !strings.Contains(ve.Diagnostics[0].String(), tc.err) || ve.Diagnostics[0].Warning || !last.Warning || !strings.Contains(last.String(), tc.hint) {
				t.Errorf("findings\n%v\nwant first %q, last %q", err, tc.err, tc.hint)
			}
			if strings.Contains(err.Error(), `"owner"`) {
				t.Errorf("a key close to none is repeated:\n%v", err)
			}
		})
	}
}

// TestFlowgateFlagsInsideAWorkflowRefused ports config_flag_scope.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/config_flag_scope.rs; SPEC §8.4,
// §20.2): a key flowgate, or flowgate.<anything>, anywhere inside a
// workflow's definition refuses the file (CONFIG_FLAG_NOT_RUNTIME_MUTABLE:
// a workflow may not flip the gateway's runtime flags), named with its
// place; the file's top-level flowgate: block, a workflow named
// flowgate and a key that only contains the word load. Unlike other keys
// it does not know, chainrun refuses these, as mcp-flowgate does.
func TestFlowgateFlagsInsideAWorkflowRefused(t *testing.T) {
	const refused = "mcp-flowgate sets its runtime flags at the file's top level only and refuses them inside a workflow (CONFIG_FLAG_NOT_RUNTIME_MUTABLE)"
	for _, tc := range []struct{ name, src, err string }{
		{"top_level_flowgate_block_accepted", "version: \"1.0.0\"\nflowgate: {authoring: {write_enabled: true}}\nworkflows:\n  demo: {initialState: s, states: {s: {terminal: true}}}\n", ""},
		{"flowgate_object_inside_workflow_rejected", "workflows:\n  demo:\n    initialState: s\n    flowgate: {authoring: {write_enabled: true}}\n    states: {s: {terminal: true}}\n",
			`c.yaml:4:5: workflow "demo": flowgate: ` + refused},
		{"flowgate_dot_key_inside_workflow_rejected", "workflows:\n  demo:\n    initialState: s\n    flowgate.authoring.write_enabled: true\n    states: {s: {terminal: true}}\n",
			`c.yaml:4:5: workflow "demo": flowgate.authoring.write_enabled: ` + refused},
		{"flowgate_nested_under_state_rejected", "workflows:\n  demo:\n    initialState: s\n    states:\n      s:\n        terminal: true\n        flowgate: {strict_namespacing: false}\n",
			`c.yaml:7:9: workflow "demo": states.s.flowgate: ` + refused},
		{"flowgate_nested_deep_inside_transition_rejected", "workflows:\n  demo:\n    initialState: s\n    states:\n      s:\n        transitions:\n          go: {target: done, flowgate: {authoring: {write_enabled: true}}}\n      done: {terminal: true}\n",
			`c.yaml:7:30: workflow "demo": states.s.transitions.go.flowgate: ` + refused},
		{"deep in its data", "workflows:\n  demo:\n    initialState: s\n    initialContext: {layers: [{flowgate.strict_namespacing: false}]}\n    states: {s: {terminal: true}}\n",
			`c.yaml:4:32: workflow "demo": initialContext.layers[0].flowgate.strict_namespacing: ` + refused},
		{"workflow_id_named_flowgate_accepted", "workflows:\n  flowgate: {initialState: s, states: {s: {terminal: true}}}\n", ""},
		{"unrelated_key_containing_flowgate_substring_accepted", "workflows:\n  demo:\n    initialState: s\n    initialContext: {flowgate-style: compact, my_flowgate: 1}\n    states: {s: {terminal: true}}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err != "" {
				expectLoad(t, tc.src, tc.err)
			} else if said := warningsOf(mustParse(t, tc.src)); strings.Contains(said, "CONFIG_FLAG") {
				t.Errorf("warnings\n%s\nname a runtime flag", said)
			}
		})
	}
}
