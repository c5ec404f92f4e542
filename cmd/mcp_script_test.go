package cmd

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"
)

// mcpCall is the script command mcp-call TOOL [JSON] [-- FLAGS...]: it
// starts `chainrun mcp FLAGS` as an MCP client would (a child speaking
// over its stdin and stdout), calls TOOL with the JSON arguments and
// prints its structured content (indented) to stdout, and "isError" when
// the result is one. TOOL "tools" prints the tools' names instead. With
// !, the call must fail.
func mcpCall(ts *testscript.TestScript, neg bool, args []string) {
	var flags []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, flags = args[:i], args[i+1:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: mcp-call TOOL [JSON] [-- FLAGS...]")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := chainrunCommand(ts, append([]string{"mcp"}, flags...)...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "testscript"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	ts.Check(err)
	defer func() { _ = cs.Close() }()
	if args[0] == "tools" {
		res, err := cs.ListTools(ctx, nil)
		ts.Check(err)
		var names []string
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		slices.Sort(names)
		_, _ = ts.Stdout().Write([]byte(strings.Join(names, "\n") + "\n"))
		return
	}
	var arguments map[string]any
	if len(args) > 1 {
		ts.Check(json.Unmarshal([]byte(args[1]), &arguments))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: args[0], Arguments: arguments})
	ts.Check(err)
	out, err := json.MarshalIndent(res.StructuredContent, "", "  ")
	ts.Check(err)
	_, _ = ts.Stdout().Write(append(out, '\n'))
	if res.IsError {
		_, _ = ts.Stdout().Write([]byte("isError\n"))
	}
	if res.IsError != neg {
		ts.Fatalf("%s: isError %v", args[0], res.IsError)
	}
}
