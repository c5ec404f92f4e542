package remote

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
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/redact"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// An mcp step calls one tool of the MCP server its connection names; its
// value is what the tool returns. A tool that reports an error (isError)
// fails the step with the tool's text, or, with on_tool_error: output, is
// the value {isError: true, text}.
func init() {
	run.Register(chain.KindMCP, run.Runner{
		Run: callMCPTool,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = "call tool " + MCP(s).Tool + " of MCP server " + s.HTTP().Connection
			if conn := v.Connection(s.HTTP().Connection); conn != nil {
				p.Action += " (" + serverOf(conn) + ")"
			}
		},
	})
}

func callMCPTool(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	conn := a.Connection(s.HTTP().Connection)
	if conn == nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("connection %s is not declared", s.HTTP().Connection))
	}
	srv, err := mcpServer(a, conn)
	if err != nil {
		return run.Outcome{}, err
	}
	args, err := toolArgs(a)
	if err != nil {
		return run.Outcome{}, err
	}
	if key := a.IdempotencyKey(); key != "" {
		// a copy: the arguments may be the decision's own
		args = maps.Clone(args)
		if args == nil {
			args = map[string]any{}
		}
		args[run.KeyArgument] = key
	}
	if tc, ok := a.Trace(ctx); ok {
		ctx = tracectx.NewContext(ctx, tc) // the server is told the step's span
	}
	res, err := a.MCP().Call(ctx, srv, MCP(s).Tool, args)
	if err != nil {
		var ce *mcpclient.ConnectError
		if errors.As(err, &ce) && errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return run.Outcome{}, run.Permanent(err)
		}
		if ce == nil && ctx.Err() == nil {
			if unknown := unknownTool(ctx, a, srv, MCP(s).Tool); unknown != nil {
				return run.Outcome{}, unknown
			}
		}
		return run.Outcome{}, err
	}
	if res.IsError {
		if unknown := unknownTool(ctx, a, srv, MCP(s).Tool); unknown != nil {
			return run.Outcome{}, unknown
		}
		if MCP(s).OnToolError != ToolErrorOutput {
			return run.Outcome{}, fmt.Errorf("tool %s of MCP server %s reported an error: %s", MCP(s).Tool, s.HTTP().Connection, firstLines(res.Text, 5))
		}
		b, _ := json.Marshal(map[string]any{"isError": true, "text": res.Text})
		return run.Outcome{Value: interp.TextValue(string(b))}, nil
	}
	switch v := res.Value().(type) {
	case string:
		return run.Outcome{Value: interp.TextValue(v)}, nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return run.Outcome{}, err
		}
		return run.Outcome{Value: interp.Value{Text: string(b), Data: v}}, nil
	}
}

// unknownTool is the error of a call that failed because the server has
// no tool of that name: the tool, the closest one it has and all of
// them, so a slip is fixed at once; nil when it has the tool (the
// failure was the tool's) or its list cannot be had. It is asked only
// once a call failed: a chain is never checked against a server at load,
// which would start every server `validate` reads of.
func unknownTool(ctx context.Context, a *run.Attempt, srv mcpclient.Server, tool string) error {
	tools, err := a.MCP().Tools(ctx, srv)
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
	return run.Permanent(errors.New(msg + "; its tools are " + strings.Join(names, ", ")))
}

// toolArgs are the tool's arguments: the step's, each read now, or
// without them a transition's decision arguments.
func toolArgs(a *run.Attempt) (map[string]any, error) {
	c := a.Step().C()
	doc := a.Document()
	if c.ToolArgs == nil {
		if args, ok := doc["arguments"].(map[string]any); ok {
			return args, nil
		}
		return nil, nil
	}
	args := make(map[string]any, len(c.ToolArgs))
	for k, arg := range c.ToolArgs {
		if arg.Template != nil {
			text, err := a.Render(arg.Template)
			if err != nil {
				return nil, err
			}
			args[k] = text
			continue
		}
		if v := arg.Mapped.Resolve(doc); v != nil {
			args[k] = v
		}
	}
	return args, nil
}

// mcpServer is how to reach a connection's server: its program with
// chainrun's environment and the connection's env (${NAME} read now), or
// its URL with its headers.
func mcpServer(a *run.Attempt, conn *chain.Connection) (mcpclient.Server, error) {
	srv := mcpclient.Server{Name: conn.Name, Command: conn.Command, Args: conn.Args, URL: conn.URL}
	if srv.Command != "" {
		env, err := connectionValues(a.Getenv, conn, "env", conn.Env)
		if err != nil {
			return srv, err
		}
		srv.Env = a.Environ()
		for _, k := range sortedKeys(env) {
			srv.Env = append(srv.Env, k+"="+env[k])
		}
		srv.Dir = a.WorkDir()
		if d := conn.WorkingDirectory; d != "" {
			if !filepath.IsAbs(d) {
				d = filepath.Join(srv.Dir, d)
			}
			srv.Dir = d
		}
	}
	var err error
	srv.Headers, err = connectionValues(a.Getenv, conn, "header", conn.Headers)
	return srv, err
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
