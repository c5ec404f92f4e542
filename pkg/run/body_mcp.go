package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/redact"
)

// An mcp step calls one tool of the MCP server its connection names; its
// value is what the tool returns. A tool that reports an error (isError)
// fails the step with the tool's text, or, with on_tool_error: output, is
// the value {isError: true, text}.
func init() {
	register(chain.KindMCP, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			return x.callMCPTool(ctx, s, sc)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			p.Action = "call tool " + s.Tool + " of MCP server " + s.Connection
			if conn := v.x.c.Connections[s.Connection]; conn != nil {
				p.Action += " (" + serverOf(conn) + ")"
			}
		},
	})
}

func (x *execution) callMCPTool(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	conn := x.c.Connections[s.Connection]
	if conn == nil {
		return outcome{}, &permanentError{fmt.Errorf("connection %s is not declared", s.Connection)}
	}
	srv, err := x.mcpServer(conn)
	if err != nil {
		return outcome{}, err
	}
	args, err := x.toolArgs(s, sc)
	if err != nil {
		return outcome{}, err
	}
	if sc.key != "" {
		// a copy: the arguments may be the decision's own
		args = maps.Clone(args)
		if args == nil {
			args = map[string]any{}
		}
		args[keyArgument] = sc.key
	}
	res, err := x.mcpPool().Call(ctx, srv, s.Tool, args)
	if err != nil {
		var ce *mcpclient.ConnectError
		if errors.As(err, &ce) && errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return outcome{}, &permanentError{err}
		}
		if ce == nil && ctx.Err() == nil {
			if unknown := x.unknownTool(ctx, srv, s.Tool); unknown != nil {
				return outcome{}, unknown
			}
		}
		return outcome{}, err
	}
	if res.IsError {
		if unknown := x.unknownTool(ctx, srv, s.Tool); unknown != nil {
			return outcome{}, unknown
		}
		if s.OnToolError != chain.ToolErrorOutput {
			return outcome{}, fmt.Errorf("tool %s of MCP server %s reported an error: %s", s.Tool, s.Connection, firstLines(res.Text, 5))
		}
		b, _ := json.Marshal(map[string]any{"isError": true, "text": res.Text})
		return outcome{value: textValue(string(b))}, nil
	}
	switch v := res.Value().(type) {
	case string:
		return outcome{value: textValue(v)}, nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return outcome{}, err
		}
		return outcome{value: Value{Text: string(b), Data: v}}, nil
	}
}

// unknownTool is the error of a call that failed because the server has
// no tool of that name: the tool, the closest one it has and all of
// them, so a slip is fixed at once; nil when it has the tool (the
// failure was the tool's) or its list cannot be had. It is asked only
// once a call failed: a chain is never checked against a server at load,
// which would start every server `validate` reads of.
func (x *execution) unknownTool(ctx context.Context, srv mcpclient.Server, tool string) error {
	tools, err := x.mcpPool().Tools(ctx, srv)
	if err != nil || len(tools) == 0 {
		return nil
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		if t.Name == tool {
			return nil
		}
		names[i] = t.Name
	}
	sort.Strings(names)
	msg := fmt.Sprintf("MCP server %s has no tool %q", srv.Name, tool)
	if m := chain.Closest(tool, names); m != "" {
		msg += " (did you mean " + m + "?)"
	}
	return &permanentError{errors.New(msg + "; its tools are " + strings.Join(names, ", "))}
}

// toolArgs are the tool's arguments: the step's, each read now, or
// without them a transition's decision arguments.
func (x *execution) toolArgs(s *chain.Step, sc scope) (map[string]any, error) {
	c := s.C()
	doc := sc.document()
	if c.ToolArgs == nil {
		if a, ok := doc["arguments"].(map[string]any); ok {
			return a, nil
		}
		return nil, nil
	}
	args := make(map[string]any, len(c.ToolArgs))
	for k, a := range c.ToolArgs {
		if a.Template != nil {
			text, err := x.render(a.Template, sc)
			if err != nil {
				return nil, err
			}
			args[k] = text
			continue
		}
		if v := a.Mapped.Resolve(doc); v != nil {
			args[k] = v
		}
	}
	return args, nil
}

// mcpServer is how to reach a connection's server: its program with
// chainrun's environment and the connection's env (${NAME} read now), or
// its URL with its headers.
func (x *execution) mcpServer(conn *chain.Connection) (mcpclient.Server, error) {
	srv := mcpclient.Server{Name: conn.Name, Command: conn.Command, Args: conn.Args, URL: conn.URL}
	if srv.Command != "" {
		env, err := connectionValues(x.getenv, conn, "env", conn.Env)
		if err != nil {
			return srv, err
		}
		srv.Env = x.environ()
		for _, k := range sortedKeys(env) {
			srv.Env = append(srv.Env, k+"="+env[k])
		}
		srv.Dir = x.workDir()
		if d := conn.WorkingDirectory; d != "" {
			if !filepath.IsAbs(d) {
				d = filepath.Join(srv.Dir, d)
			}
			srv.Dir = d
		}
	}
	var err error
	srv.Headers, err = connectionValues(x.getenv, conn, "header", conn.Headers)
	return srv, err
}

// mcpPool is the run's MCP sessions, opened when a step first needs one.
func (x *execution) mcpPool() *mcpclient.Pool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.mcp == nil {
		x.mcp = &mcpclient.Pool{Grace: x.l.grace}
	}
	return x.mcp
}

// closeMCP ends the run's MCP sessions (stdio servers stop).
func (x *execution) closeMCP() {
	x.mu.Lock()
	p := x.mcp
	x.mcp = nil
	x.mu.Unlock()
	if p != nil {
		if err := p.Close(); err != nil {
			x.warn("closing MCP sessions: " + err.Error())
		}
	}
}

// serverOf says where a connection's server is, for a dry run.
func serverOf(conn *chain.Connection) string {
	if conn.URL != "" {
		return redact.URL(conn.URL)
	}
	return strings.Join(append([]string{conn.Command}, conn.Args...), " ")
}

// firstLines is the first n lines of a text.
func firstLines(text string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(text), "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}
