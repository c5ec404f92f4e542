package chain

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/interp"
)

// executorFile is a workflow file whose one transition runs the executor
// given (indented under executor:), with the file-level keys given.
func executorFile(top, executor string) string {
	return top + "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            executor:\n" +
		indent(executor, "              ") + "      b: {terminal: true}\n"
}

func indent(s, by string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(by + line + "\n")
	}
	return b.String()
}

const rest = "connections:\n  api: {kind: rest, baseUrl: 'https://api.example.com', headers: {Authorization: 'Bearer ${TOKEN}'}}\n  sh: {kind: cli, command: bash, args: [-c]}\n  gh: {kind: mcp, command: github-mcp-server}\n"

const lib = "scripts:\n  verify.green:\n    verb: verify\n    body: |\n      #!/usr/bin/env bash\n      echo '{\"ok\": true}'\n"

// TestExecutorKinds: mcp-flowgate's script, rest, parallel and workflow
// executors load with their file's scripts: and connections:, and every
// mistake is named at its line.
func TestExecutorKinds(t *testing.T) {
	cases := []struct {
		name, top, executor string
		want                string // "" loads; else a message the errors hold
	}{
		{"script", lib, "kind: script\nsubject: verify.green\nargs: [\"$.context.x\"]\nworkingDirectory: sub\n", ""},
		// an input the workflow does not declare: refused in chainrun's
		// own reading (as mcp-flowgate's, accepted with a warning:
		// format/flowgate's TestFlowgateUndeclaredInputsWarn)
		{"args of the workflow's input", "", "kind: cli\ncommand: echo\nargs: [\"$.workflow.input.nope\"]\n", `c.yaml:13:15: transition "go" executor: args: $.workflow.input.nope: no input is named nope`},
		{"script of another file's library", "", "kind: script\nsubject: verify.green\n", ""},
		{"script without subject", lib, "kind: script\n", "subject is required for a script step"},
		{"script body from a uri", "scripts:\n  x: {verb: run, uri: 'file://x.sh', hash: 'sha256:00'}\n", "kind: noop\n", `script "x": uri "file://x.sh": a script's body is read from the file only`},
		{"script hash that does not match", "scripts:\n  x: {verb: run, body: 'echo hi', hash: 'sha256:00'}\n", "kind: noop\n", `script "x": hash sha256:00 does not match the body, whose hash is sha256:`},
		{"rest", rest, "kind: rest\nconnection: api\nmethod: POST\npath: /docs/{documentId}\nquery: {state: open}\nbody:\n  title: \"$.workflow.input.topic\"\n  tags: [a, \"$.context.tag\"]\nidempotencyKey: true\n", ""},
		{"http with a connection", rest, "kind: http\nconnection: api\npath: /x\n", ""},
		{"unknown connection", rest, "kind: rest\nconnection: apj\npath: /x\n",
			`c.yaml:16:15: transition "go" executor: no rest connection is named "apj" (did you mean api?); rest connections: api`},
		{"cli connection for a rest executor", rest, "kind: rest\nconnection: sh\n", `connection "sh" is a cli connection; a http step needs a rest one`},
		{"mcp connection for a rest executor", rest, "kind: rest\nconnection: gh\n", `connection "gh" is a mcp connection; a http step needs a rest one`},
		{"url and connection", rest, "kind: rest\nconnection: api\nurl: https://x\n", "url and connection: set one"},
		{"path without a connection", "", "kind: rest\npath: /x\n", "path is added to a connection's baseUrl"},
		{"body reading the output", rest, "kind: rest\nconnection: api\nbody: {a: \"$.output.x\"}\n", `"$.output.x" reads the executor's output, which does not exist before it runs`},
		{"cli connection", rest, "kind: cli\nconnection: sh\nargs: [\"echo hi\"]\n", ""},
		{"cli connection of a list", "connections:\n  ed: {type: cli, command: [constrained-edit, --safe]}\n", "kind: cli\nconnection: ed\nargs: [x]\n", ""},
		{"cli connection and command", rest, "kind: cli\nconnection: sh\ncommand: ls\n", `connection "sh" gives the command: set connection or command/run, not both`},
		{"connection without kind", "connections:\n  x: {baseUrl: 'https://x'}\n", "kind: noop\n", `connection "x": kind is required: rest, cli, mcp`},
		{"mcp", rest, "kind: mcp\nconnection: gh\ntool: list_issues\narguments: {repo: \"$.workflow.input.repo\", state: open, label: \"{context.label}\", filter: {author: \"$.arguments.who\"}}\non_tool_error: output\n", ""},
		{"mcp with map", rest, "kind: mcp\nconnection: gh\ntool: list\nmap: {topic: \"$.workflow.input.topic\"}\n", ""},
		{"mcp with map and arguments", rest, "kind: mcp\nconnection: gh\ntool: list\nmap: {a: 1}\narguments: {a: 2}\n", "map and arguments are one thing: set one"},
		{"mcp without arguments", rest, "kind: mcp\nconnection: gh\ntool: list\n", ""},
		{"mcp over http", "connections:\n  g: {type: mcp, transport: {kind: streamable_http, url: 'http://localhost:7100/mcp'}}\n", "kind: mcp\nconnection: g\ntool: t\n", ""},
		{"mcp over stdio transport", "connections:\n  g: {kind: mcp, transport: {kind: stdio, command: [srv, --x], args: [-y]}}\n", "kind: mcp\nconnection: g\ntool: t\n", ""},
		// loads, as mcp-flowgate loads it; a run refuses it before
		// anything runs (run's TestMCPExecutorWithoutToolIsPending)
		{"mcp without tool", rest, "kind: mcp\nconnection: gh\n", ``},
		{"mcp without connection", rest, "kind: mcp\ntool: list\n", "connection is required for an mcp step"},
		{"mcp on a rest connection", rest, "kind: mcp\nconnection: api\ntool: list\n", `connection "api" is a rest connection; a mcp step needs a mcp one`},
		{"mcp on no connection", rest, "kind: mcp\nconnection: gj\ntool: list\n", `no mcp connection is named "gj" (did you mean gh?)`},
		// a file without connections: leaves them to where it runs (the
		// run refuses one nothing declares: run.PendingDefinitions)
		{"mcp connection of a file that declares none", "", "kind: mcp\nconnection: github_mcp\ntool: list\n", ""},
		{"rest connection of a file that declares none", "", "kind: rest\nconnection: api\npath: /x\n", ""},
		{"cli connection of a file that declares none", "", "kind: cli\nconnection: sh\nargs: [x]\n", `no cli connection is named "sh": the file's connections: declares none`},
		{"mcp arguments as a list", rest, "kind: mcp\nconnection: gh\ntool: list\narguments: [a]\n", "arguments must be a mapping of the tool's argument names to values, not a list"},
		{"mcp bad on_tool_error", rest, "kind: mcp\nconnection: gh\ntool: list\non_tool_error: ignore\n", `on_tool_error is fail or output, not "ignore"`},
		{"mcp argument reading the output", rest, "kind: mcp\nconnection: gh\ntool: list\narguments: {a: \"$.output.x\"}\n", "arguments.a"},
		{"mcp connection without server", "connections:\n  g: {kind: mcp}\n", "kind: noop\n", `connection "g": an mcp connection needs a command`},
		{"mcp connection with both", "connections:\n  g: {kind: mcp, command: x, url: 'http://x'}\n", "kind: noop\n", "has a command or a url, not both"},
		{"mcp transport of an unknown kind", "connections:\n  g: {kind: mcp, transport: {kind: websocket, url: 'ws://x'}}\n", "kind: noop\n", `transport kind "websocket" is not one of stdio, streamable_http`},
		{"parallel", "", "kind: parallel\njoin: {at_least: 2}\non_branch_failure: continue\nmax_concurrency: 2\nbranches:\n  - {kind: noop}\n  - {kind: cli, run: 'echo {context.x}'}\n  - kind: parallel\n    branches: [{kind: noop}]\n", ""},
		{"parallel fan-out", "", "kind: parallel\nbranches:\n  for_each: \"$.context.items\"\n  where: \"$.value != ''\"\n  do: {kind: cli, command: echo, args: [\"{item}\", \"$.branch.index\"]}\njoin: {expression: \"$.ok_count >= 1\"}\n", ""},
		{"parallel aggregator expression", "", "kind: parallel\nbranches: [{kind: noop}]\njoin: {aggregator: {kind: expression, expr: \"$.failed_count == 0\"}}\n", ""},
		{"parallel without branches", "", "kind: parallel\n", "branches are required for a parallel step"},
		{"parallel of no branches", "", "kind: parallel\nbranches: []\n", "branches is empty"},
		{"ten branches without a bound", "", "kind: parallel\nbranches: [{kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}, {kind: noop}]\n",
			"10 branches without max_concurrency"},
		{"bad join", "", "kind: parallel\nbranches: [{kind: noop}]\njoin: most\n", "join is all, any, {at_least: K}"},
		{"percent over 100", "", "kind: parallel\nbranches: [{kind: noop}]\njoin: {percent: 150}\n", "join.percent is a whole number from 0 to 100"},
		{"join expression of an unknown name", "", "kind: parallel\nbranches: [{kind: noop}]\njoin: {expression: \"$.passed > 1\"}\n", `join "$.passed > 1"`},
		{"aggregator that would run a step", "", "kind: parallel\nbranches: [{kind: noop}]\njoin: {aggregator: {kind: script, subject: x}}\n", `only kind: expression is supported`},
		{"bad on_branch_failure", "", "kind: parallel\nbranches: [{kind: noop}]\non_branch_failure: retry\n", `on_branch_failure is bail or continue, not "retry"`},
		{"branch of an unknown kind", "", "kind: parallel\nbranches:\n  - {kind: noop}\n  - {kind: teleport, steps: []}\n",
			`transition "go" executor branch 2: unknown kind "teleport"`},
		{"branch with an id", "", "kind: parallel\nbranches: [{kind: noop, id: x}]\n", "branch 1: id does not apply to a branch"},
		{"branch field of another kind", "", "kind: parallel\nbranches: [{kind: noop, url: x}]\n", `transition "go" executor branch 1: url does not belong to a noop step`},
		{"fan-out without do", "", "kind: parallel\nbranches: {for_each: \"$.context.items\"}\n", "for_each (a JSONPath to a list) and do"},
		{"fan-out over text", "", "kind: parallel\nbranches: {for_each: items, do: {kind: noop}}\n", `branches.for_each "items": write the list as a JSONPath`},
		{"workflow", "", "kind: workflow\ndefinitionId: cap.plan.vet\nuse:\n  inputs: {plan: \"$.context.draft\", max: 3, nested: {a: \"$.arguments.x\"}}\n  outputs: {\"$.context.verdict\": verdict}\n", ""},
		{"workflow with input", "", "kind: workflow\ndefinitionId: sub\ninput: {artifact: \"$.context.artifact\"}\n", ""},
		{"workflow without definitionId", "", "kind: workflow\n", "definitionId is required for a workflow step"},
		{"workflow with use and input", "", "kind: workflow\ndefinitionId: x\nuse: {inputs: {}}\ninput: {}\n", "set use (inputs and outputs) or input, not both"},
		{"use.outputs to no context key", "", "kind: workflow\ndefinitionId: x\nuse: {outputs: {verdict: verdict}}\n", `use.outputs "verdict": write the context key it sets as "$.context.KEY"`},
		{"unknown use key", "", "kind: workflow\ndefinitionId: x\nuse: {inputs: {}, output: {}}\n", `"output"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { expectLoad(t, executorFile(tc.top, tc.executor), tc.want) })
	}
}

// expectLoad parses src as c.yaml: it loads when want is "", else its
// validation errors hold want.
func expectLoad(t *testing.T, src, want string) {
	t.Helper()
	_, err := Parse("c.yaml", []byte(src), Options{})
	if want == "" {
		if err != nil {
			t.Fatalf("does not load: %v", err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error holding %q, got %v", want, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("errors\n%v\nhold no %q", err, want)
	}
}

// TestFileLibraryReachesEveryWorkflow: scripts: and connections: serve
// each workflow of the file; the chains of one file know each other.
func TestFileLibraryReachesEveryWorkflow(t *testing.T) {
	src := rest + lib + "workflows:\n  a:\n    initialState: s\n    states: {s: {terminal: true}}\n  b:\n    initialState: s\n    states: {s: {terminal: true}}\n"
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l.Chains {
		if c.Scripts["verify.green"] == nil || c.Connections["api"] == nil || c.Connections["gh"] == nil || c.Connections["gh"].Command != "github-mcp-server" {
			t.Errorf("%s: scripts %v connections %v", c.Name, c.Scripts, c.Connections)
		}
		if c.Sibling("a") != l.Chains[0] || c.Sibling("b") != l.Chains[1] || c.Sibling("c") != nil {
			t.Errorf("%s: siblings %v", c.Name, c.SiblingNames())
		}
	}
	sc := l.Chain.Scripts["verify.green"]
	if sc.Interpreter() != "bash" || !strings.HasPrefix(sc.Hash, "sha256:") || len(sc.Hash) != 71 {
		t.Errorf("script %+v", sc)
	}
	if len(l.Warnings) != 0 {
		t.Errorf("warnings %v", l.Warnings)
	}
}

// TestScriptInterpreter: a script runs by its #! line's program (through
// env, the one env finds), else bash.
func TestScriptInterpreter(t *testing.T) {
	for body, want := range map[string]string{
		"echo hi":                                 "bash",
		"#!/bin/sh -e\necho hi":                   "/bin/sh",
		"#!/usr/bin/env python3\nprint(1)":        "python3",
		"#!/usr/bin/env -S deno run\nconsole.log": "deno",
		"#!\necho":                                "bash",
	} {
		if got := (&Script{Body: body}).Interpreter(); got != want {
			t.Errorf("%q: %s, want %s", body, got, want)
		}
	}
}

// TestMappedResolve: $.-texts are read from the document, the rest is
// literal, objects and lists are walked; a path that selects nothing is
// null.
func TestMappedResolve(t *testing.T) {
	m, err := interp.CompileMapped(map[string]any{
		"plan":  "$.context.plan",
		"n":     3,
		"money": "$5",
		"list":  []any{"$.arguments.a", "x"},
		"gone":  "$.context.nothing",
		"deep":  map[string]any{"who": "$.workflow.input.user"},
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{"context": map[string]any{"plan": map[string]any{"steps": 2}}, "arguments": map[string]any{"a": 1},
		"workflow": map[string]any{"input": map[string]any{"user": "ann"}}}
	got := m.Resolve(doc).(map[string]any)
	if got["n"] != 3 || got["money"] != "$5" || got["gone"] != nil || got["deep"].(map[string]any)["who"] != "ann" ||
		got["list"].([]any)[0] != 1 || got["plan"].(map[string]any)["steps"] != 2 {
		t.Errorf("resolved %v", got)
	}
	if paths := strings.Join(m.Paths(), " "); paths != "$.workflow.input.user $.context.nothing $.arguments.a $.context.plan" {
		t.Errorf("paths %s", paths)
	}
	if _, err := interp.CompileMapped("$.branch.value", false); err == nil {
		t.Error("$.branch outside a fan-out compiled")
	}
	if _, err := interp.CompileMapped("$.branch.value", true); err != nil {
		t.Errorf("$.branch in a fan-out: %v", err)
	}
}
