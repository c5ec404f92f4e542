package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/tools"
)

// ToolCallRequest is a tool call outside a step's tools, as a person is
// asked to allow it: exactly that call, named by its arguments' digest.
type ToolCallRequest struct {
	RunID     string
	Step      string
	Tool      string
	Arguments string
	Digest    string
}

// ToolAsker asks whether one tool call outside a step's tools may run. It
// is called concurrently when a turn's calls run together: the asker
// owns the terminal and puts its questions in turn.
type ToolAsker func(ctx context.Context, r ToolCallRequest) (bool, error)

// toolEnv is where a step's tool calls act: its directory, and the
// run's process settings.
func (x *Execution) toolEnv(ctx context.Context, s *chain.Step, sc Scope) (tools.Env, error) {
	dir, err := x.dir(s.C().Cwd, sc)
	if err != nil {
		return tools.Env{}, err
	}
	return tools.Env{Dir: dir, Grace: x.Engine.grace, Force: interrupt.Force(ctx),
		Environ: x.environ("CHAINRUN_RUN_ID="+x.RunID, "CHAINRUN_STEP_ID="+s.ID),
		Fetch:   x.fetchText, Search: x.search}, nil
}

// callTool runs one tool call and returns the result the model reads. A
// call outside the step's tools runs only when granted (--grant) or
// allowed at the terminal; otherwise the model is told it was denied.
func (x *Execution) callTool(ctx context.Context, s *chain.Step, env tools.Env, call llm.ToolCall, calls *atomic.Int64) (string, bool) {
	_, builtin := tools.Lookup(call.Name)
	def := x.Chain.Tool(call.Name)
	if !builtin && def == nil {
		x.emitTool(s, call, event.Unknown, "", 0)
		return fmt.Sprintf("error: there is no tool named %q; the tools are %s", call.Name, strings.Join(ask.Offered(s), ", ")), true
	}
	if !slices.Contains(s.Agent().Tools, call.Name) {
		if why, ok := x.allow(ctx, s, call); !ok {
			x.emitTool(s, call, event.Denied, why, 0)
			return fmt.Sprintf("denied: %s is not among this step's tools (%s) and %s; it was not run", call.Name, strings.Join(s.Agent().Tools, ", "), why), true
		}
	}
	calls.Add(1)
	start := x.Engine.Now()
	var text string
	var err error
	if builtin {
		text, err = tools.Run(ctx, env, call.Name, json.RawMessage(call.Arguments))
	} else {
		text, err = x.runToolDef(ctx, def, env.Dir, call.Arguments)
	}
	d := x.Engine.Now().Sub(start).Milliseconds()
	if err != nil && ctx.Err() != nil {
		err = errors.New(stopText(ctx)) // the run stopped it, whichever tool it was
	}
	if err != nil {
		x.emitTool(s, call, event.Error, err.Error(), d)
		return "error: " + x.Mask(err.Error()), true
	}
	x.emitTool(s, call, event.OK, "", d)
	return x.Mask(text), false
}

// allow decides a call outside the step's tools: a --grant for the tool,
// else the person at the terminal for exactly this call, else denied.
// Every grant and denial is an audit event.
func (x *Execution) allow(ctx context.Context, s *chain.Step, call llm.ToolCall) (string, bool) {
	digest := ask.ArgsDigest(call.Arguments)
	audit := func(t event.Type, by string) {
		x.Emit(event.Event{Type: t, Step: s.ID, Tool: call.Name, Digest: digest, Subject: x.Mask(ask.CallSubject(call.Arguments)), DecidedBy: by})
	}
	if x.Req.Grants[call.Name] {
		audit(event.ToolGranted, "grant")
		return "", true
	}
	if x.Req.Ask == nil {
		audit(event.ToolDenied, "headless")
		return "no one is at a terminal to allow it (grant it with --grant " + call.Name + ")", false
	}
	ok, err := x.Req.Ask(ctx, ToolCallRequest{RunID: x.RunID, Step: s.ID, Tool: call.Name, Arguments: x.Mask(call.Arguments), Digest: digest})
	if err != nil || !ok {
		audit(event.ToolDenied, "human")
		return "the person at the terminal refused it", false
	}
	audit(event.ToolGranted, "human")
	return "", true
}

// runToolDef runs a chain-defined tool: its arguments are checked against
// its schema, then its executor runs with them as {args}, confined to the
// calling step's directory like the built-in tools (confine.go).
func (x *Execution) runToolDef(ctx context.Context, def *chain.ToolDef, dir, args string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return "", fmt.Errorf("the arguments are not JSON: %v", err)
	}
	if def.Schema != nil {
		if err := def.Schema.Validate(v); err != nil {
			return "", fmt.Errorf("the arguments do not satisfy %s's schema: %s", def.Name, given.SchemaMessage(err))
		}
	}
	out, _, err := x.attempts(ctx, def.Executor, Scope{Vars: x.Vars, jail: dir}.with("args", DataValue(v)))
	if err != nil {
		return out.Value.Text, err
	}
	return out.Value.Text, nil
}

// emitTool records one tool call in the audit trail.
func (x *Execution) emitTool(s *chain.Step, call llm.ToolCall, status event.Status, detail string, ms int64) {
	e := event.Event{Type: event.ToolCall, Step: s.ID, Tool: call.Name, Digest: ask.ArgsDigest(call.Arguments),
		Subject: x.Mask(ask.CallSubject(call.Arguments)), Status: status, DurationMS: ms}
	if status == event.Error {
		e.Error = detail
	} else {
		e.Detail = detail
	}
	x.Emit(e)
}
