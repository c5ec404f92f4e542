package remote

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"reflect"
	"sort"
	"strings"
)

// MCPFields configure an mcp step (mcp-flowgate's mcp executor): a call
// of one tool of the MCP server a connection names. Its value is what
// the tool returns: the structured content, else the text (its fields
// readable when it is JSON).
type MCPFields struct {
	Tool string `yaml:"tool" doc:"The tool an mcp step calls on its connection's server."`
	// Arguments are the tool's arguments: each text value a template
	// ({input.x}, {step}) or a $.-path read when the step runs; mappings
	// and lists are sent as written, their $.-paths read.
	Arguments any `yaml:"arguments" doc:"The tool's arguments (a mapping): text values are templates ({input.x}, {step.field}) or $.-paths ($.context.x, $.arguments.y); without it a transition's decision arguments are sent."`
	// Map is mcp-flowgate's first name of arguments.
	Map any `yaml:"map" doc:"The tool's arguments, as mcp-flowgate's first files name them (arguments)."`
	// OnToolError is what a tool reporting an error (isError) does: fail
	// the step (the default) or be its value, to branch on.
	OnToolError string `yaml:"on_tool_error" doc:"fail (default): a tool error (isError) fails the step with the tool's text; output: the step succeeds and its value is {isError: true, text}."`
}

// MCP on_tool_error values.
const (
	ToolErrorFail   = "fail"
	ToolErrorOutput = "output"
)

func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindMCP,
		Order:   220,
		Body:    reflect.TypeFor[MCPFields](),
		Also:    []string{"connection", chain.KeyField},
		Check:   checkMCP,
		Compile: compileMCP,
	})
}

func checkMCP(v chain.Checker, s *chain.Step) {
	if MCP(s).Tool == "" && s.Owner() == "" {
		// a workflow's executor without one loads, as mcp-flowgate loads
		// it (it fails it when it runs): a pending definition, which a
		// run refuses before anything runs (run.PendingDefinitions)
		v.Errorf(s.Pos, "%s: tool is required for an mcp step (the name of the tool its server offers)", s.Subject())
	}
	if s.HTTP().Connection == "" {
		v.Errorf(s.Pos, "%s: connection is required for an mcp step (one of the file's connections of kind mcp)", s.Subject())
	} else {
		v.Connection(s, chain.ConnMCP)
	}
	switch MCP(s).OnToolError {
	case "", ToolErrorFail, ToolErrorOutput:
	default:
		v.Errorf(s.At("on_tool_error"), "%s: on_tool_error is %s or %s, not %q", s.Subject(), ToolErrorFail, ToolErrorOutput, MCP(s).OnToolError)
	}
	if MCP(s).Map != nil {
		if MCP(s).Arguments != nil {
			v.Errorf(s.At("map"), "%s: map and arguments are one thing: set one", s.Subject())
		}
		chain.Own[MCPFields](s).Arguments = MCP(s).Map
		if s.FieldPos == nil {
			s.FieldPos = map[string]chain.Pos{}
		}
		s.FieldPos["arguments"] = s.At("map")
	}
	switch chain.NormalizeYAML(MCP(s).Arguments).(type) {
	case nil, map[string]any:
	case []any:
		v.Errorf(s.At("arguments"), "%s: arguments must be a mapping of the tool's argument names to values, not a list", s.Subject())
	default:
		v.Errorf(s.At("arguments"), "%s: arguments must be a mapping of the tool's argument names to values, not a single value", s.Subject())
	}
}

func compileMCP(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	args, ok := chain.NormalizeYAML(MCP(s).Arguments).(map[string]any)
	if !ok {
		return
	}
	c.ToolArgs = make(map[string]chain.MCPArg, len(args))
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		field := "arguments." + k
		if text, ok := args[k].(string); ok && !strings.HasPrefix(text, "$.") && !strings.HasPrefix(text, "$[") {
			c.ToolArgs[k] = chain.MCPArg{Template: v.Template(s, "arguments", text)}
			continue
		}
		c.ToolArgs[k] = chain.MCPArg{Mapped: v.Mapped(s, field, args[k])}
	}
}

// MCP is the step's MCPFields, a shared zero value when it has none (read
// only; write through Own).
func MCP(s *chain.Step) *MCPFields { return chain.Part[MCPFields](s) }
