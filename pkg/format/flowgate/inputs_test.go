package flowgate

import (
	"strings"
	"testing"
)

// TestFlowgateUndeclaredInputsWarn: a workflow of a workflows: file may
// read an input it does not declare, as mcp-flowgate's may
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a: validate.rs
// checks no input reference; runtime.rs start validates the input only
// against an inputSchema, and runtime_schema.rs validate_schema accepts
// anything without one). Each such reference is warned of, naming its
// line and the input, saying it is accepted as mcp-flowgate accepts it
// and what it is when not given; chainrun's own {input.x} and its DAG
// chains stay strict.
func TestFlowgateUndeclaredInputsWarn(t *testing.T) {
	const tail = "    initialState: a\n    states:\n      a:\n%s        transitions:\n          go: {target: b, actor: deterministic%s}\n      b: {terminal: true}\n"
	file := func(schema, state, exec string) string {
		return "version: '1'\nworkflows:\n  w:\n" + schema + strings.Replace(strings.Replace(tail, "%s", state, 1), "%s", exec, 1)
	}
	open := "    inputSchema: {type: object, properties: {version: {type: string}}}\n"
	closed := "    inputSchema: {type: object, properties: {version: {type: string}}, additionalProperties: false}\n"
	cases := []struct {
		name, src string
		warns     []string // each a warning holds
	}{
		{"a cli argument without inputSchema", file("", "", `, executor: {kind: cli, command: echo, args: ["$.workflow.input.who"]}`),
			[]string{`c.yaml:8:86: warning: transition "go" executor: args: $.workflow.input.who: no input is named who: accepted, as mcp-flowgate accepts it (its workflow takes any input, as it declares no inputSchema); not given, it is passed as written, $.workflow.input.who`}},
		{"a placeholder without inputSchema", file("", "        goal: 'Review {{ $.workflow.input.topic }} now'\n", ""),
			[]string{`c.yaml:7:9: warning: state "a": goal: {{ $.workflow.input.topic }}: no input is named topic`, "not given, it shows as (topic: unset)"}},
		{"a misspelt placeholder beside an open inputSchema", file(open, "        guidance: 'v{{ $.workflow.input.versoin }}'\n", ""),
			[]string{`guidance: {{ $.workflow.input.versoin }}: no input is named versoin (did you mean version?): accepted, as mcp-flowgate accepts it (its inputSchema leaves other inputs open)`}},
		{"an env value beside a closed inputSchema", file(closed, "", `, executor: {kind: cli, command: env, env: {TOKEN: "$.input.token"}}`),
			[]string{`env: $.input.token: no input is named token`, "its inputSchema's additionalProperties: false refuses the input, so it is never given", "passed as written, $.input.token"}},
		{"a script argument, one of two", file("", "", `, executor: {kind: script, subject: s, args: ["$.workflow.input.version", "$.workflow.input.mode"]}`),
			[]string{"no input is named version", "no input is named mode"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if strings.Contains(src, "kind: script") {
				src = "scripts:\n  s: {verb: run, body: 'echo hi'}\n" + src
			}
			l, err := Parse("c.yaml", []byte(src), Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var all []string
			for _, w := range l.Warnings {
				all = append(all, w.String())
			}
			got := strings.Join(all, "\n")
			for _, want := range tc.warns {
				if !strings.Contains(got, want) {
					t.Errorf("warnings\n%s\nlack %q", got, want)
				}
			}
		})
	}
}

// TestChainrunInputsStayStrict: what mcp-flowgate's format does not
// write keeps chainrun's checks: {input.x} in a workflows: file, and a
// DAG chain's references, whatever their syntax.
func TestChainrunInputsStayStrict(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"a template in a workflow", "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n        goal: 'Hi {input.who}'\n        transitions:\n          go: {target: b, actor: human}\n      b: {terminal: true}\n",
			`state "a": goal: {input.who}: no input is named who`},
		{"a template argument in a workflow", "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, actor: deterministic, executor: {kind: cli, command: echo, args: ['{input.who}']}}\n      b: {terminal: true}\n",
			`args: {input.who}: no input is named who`},
		{"a JSONPath argument in a DAG chain", "name: d\ninputs: [topic]\nsteps:\n  - id: s\n    type: cli\n    command: echo\n    args: ['$.input.who']\n",
			`args: $.input.who: no input is named who`},
		{"a template in a DAG chain", "name: d\ninputs: [topic]\nsteps:\n  - id: s\n    type: cli\n    command: echo\n    args: ['{input.tpoic}']\n",
			`no input is named tpoic (did you mean topic?)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %q", err, tc.want)
			}
		})
	}
}

// TestInputsOpen: which chains take an input they do not declare. A
// workflows: file's workflow without inputSchema does (mcp-flowgate's
// runtime.rs start, commit 443aa7a, checks input only against a schema),
// and so does one whose schema leaves its properties open; an
// additionalProperties: false closes it, as JSON Schema does in
// mcp-flowgate's validate_schema. A DAG chain declares all it takes, and
// is not read as mcp-flowgate's (a contenox task chain's case is in
// pkg/format/contenox).
func TestInputsOpen(t *testing.T) {
	wf := func(schema string) string {
		return "version: '1'\nworkflows:\n  w:\n" + schema + "    initialState: a\n    states:\n      a: {terminal: true}\n"
	}
	cases := []struct {
		name, file, src string
		open, flowgate  bool
	}{
		{"a workflow without inputSchema", "c.yaml", wf(""), true, true},
		{"an open inputSchema", "c.yaml", wf("    inputSchema: {type: object, properties: {a: {type: string}}}\n"), true, true},
		{"additionalProperties true", "c.yaml", wf("    inputSchema: {type: object, additionalProperties: true}\n"), true, true},
		{"additionalProperties false", "c.yaml", wf("    inputSchema: {type: object, properties: {a: {type: string}}, additionalProperties: false}\n"), false, true},
		{"a DAG chain", "c.yaml", "name: d\ninputs: [a]\nsteps:\n  - {id: s, type: cli, command: echo, args: ['{input.a}']}\n", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse(tc.file, []byte(tc.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Chain.InputsOpen(); got != tc.open {
				t.Errorf("InputsOpen %v, want %v", got, tc.open)
			}
			if got := l.Chain.LenientInputs(); got != tc.flowgate {
				t.Errorf("LenientInputs %v, want %v", got, tc.flowgate)
			}
		})
	}
}
