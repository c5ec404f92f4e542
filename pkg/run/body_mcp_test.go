package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestMCPExecutorCallsTheConnectionsTool: an mcp executor calls a tool of
// its connection's server with arguments read from the input, the
// context and templates; $.output is what the tool returned; a tool
// error is data with on_tool_error: output and a failure without it; the
// run opens one session for every call.
func TestMCPExecutorCallsTheConnectionsTool(t *testing.T) {
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	t.Setenv("MCP_TOKEN", "t0k")
	src := flowOf("connections:\n  calc: {kind: mcp, url: '"+web.URL+"', headers: {Authorization: 'Bearer ${MCP_TOKEN}'}}\n", `      a:
        transitions:
          add:
            target: b
            actor: deterministic
            executor:
              kind: mcp
              connection: calc
              tool: sum
              arguments: {a: "$.workflow.input.n", b: 2.5}
            output:
              total: "$.output.sum"
      b:
        transitions:
          say:
            target: c
            actor: deterministic
            executor: {kind: mcp, connection: calc, tool: echo, arguments: {text: "total {context.total}"}}
            output:
              said: "$.output.text"
      c:
        transitions:
          try:
            target: d
            actor: deterministic
            executor: {kind: mcp, connection: calc, tool: fail, arguments: {reason: soft}, on_tool_error: output}
            output:
              soft: "$.output.isError"
      d:
        transitions:
          break:
            target: e
            actor: deterministic
            executor: {kind: mcp, connection: calc, tool: fail, arguments: {reason: "disk full"}}
      e: {terminal: true}
`)
	c := load(t, strings.Replace(src, "    initialState: a\n", "    inputSchema: {type: object, properties: {n: {type: number}}}\n    initialState: a\n", 1))
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"n": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(t, res.Context); got != `{"said":"total 6.5","soft":true,"total":6.5}` {
		t.Errorf("context %s", got)
	}
	if res.Status != record.Failed || !strings.Contains(res.Error, "tool fail of MCP server calc reported an error: failed: disk full") {
		t.Errorf("status %s error %q", res.Status, res.Error)
	}
	if auth := srv.Authorization.Load(); auth != "Bearer t0k" {
		t.Errorf("Authorization %v, want the connection's header with ${MCP_TOKEN} read", auth)
	}
	if n := srv.Calls.Load(); n != 4 {
		t.Errorf("%d tool calls, want 4", n)
	}
}

// TestMCPUnknownToolNamesTheServersTools: a tool the server does not
// offer fails the step at once (no retry) naming the tool, the closest
// one the server has and the list of its tools; a tool it has that
// fails is still the tool's own error.
func TestMCPUnknownToolNamesTheServersTools(t *testing.T) {
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	cases := []struct{ tool, want string }{
		{"ecoh", `MCP server calc has no tool "ecoh" (did you mean echo?); its tools are echo, env, fail, json, record, sleep, sum`},
		{"summ", `has no tool "summ" (did you mean sum?)`},
		{"translate", `has no tool "translate"; its tools are echo, env, fail, json, record, sleep, sum`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			src := flowOf("connections:\n  calc: {kind: mcp, url: '"+web.URL+"'}\n", `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: mcp, connection: calc, tool: `+c.tool+`, retry: {max: 3}}
      b: {terminal: true}
`)
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Failed || !strings.Contains(res.Error, c.want) {
				t.Fatalf("%s %q\nwant %q", res.Status, res.Error, c.want)
			}
			if n := len(res.Steps); n != 1 || res.Steps[0].Attempts != 1 {
				t.Errorf("an unknown tool is asked for again: %+v", res.Steps)
			}
		})
	}
}
