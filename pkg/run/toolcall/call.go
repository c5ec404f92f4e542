package toolcall

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
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/tools"
)

// Env is where a step's tool calls act: its directory, and the run's
// process settings; a kind asks for it once per step, before its calls.
func Env(ctx context.Context, a *run.Attempt) (tools.Env, error) {
	s := a.Step()
	dir, err := a.Dir(s.C().Cwd)
	if err != nil {
		return tools.Env{}, err
	}
	return tools.Env{Dir: dir, Grace: a.Grace(), Force: interrupt.Force(ctx),
		Environ: a.Environ("CHAINRUN_RUN_ID="+a.RunID(), "CHAINRUN_STEP_ID="+s.ID),
		Fetch:   a.Fetch, Search: a.Search}, nil
}

// Call runs one tool call of the step's model in env and returns what
// the model reads (isErr for an error). A call outside the step's tools
// runs only when granted (--grant) or allowed at the terminal; otherwise
// the model is told it was denied. Every call is an audit event, and
// calls counts those that ran.
func Call(ctx context.Context, a *run.Attempt, env tools.Env, call llm.ToolCall, calls *atomic.Int64) (text string, isErr bool) {
	s := a.Step()
	_, builtin := tools.Lookup(call.Name)
	def := a.Chain().Tool(call.Name)
	if !builtin && def == nil {
		Record(a, call, event.Unknown, "", 0)
		return fmt.Sprintf("error: there is no tool named %q; the tools are %s", call.Name, strings.Join(ask.Offered(s), ", ")), true
	}
	if !slices.Contains(s.Agent().Tools, call.Name) {
		if why, ok := allow(ctx, a, call); !ok {
			Record(a, call, event.Denied, why, 0)
			return fmt.Sprintf("denied: %s is not among this step's tools (%s) and %s; it was not run", call.Name, strings.Join(s.Agent().Tools, ", "), why), true
		}
	}
	calls.Add(1)
	start := a.Now()
	var err error
	if builtin {
		text, err = tools.Run(ctx, env, call.Name, json.RawMessage(call.Arguments))
	} else {
		text, err = runToolDef(ctx, a, def, env.Dir, call.Arguments)
	}
	d := a.Now().Sub(start).Milliseconds()
	if err != nil && ctx.Err() != nil {
		err = errors.New(record.StopText(ctx)) // the run stopped it, whichever tool it was
	}
	if err != nil {
		Record(a, call, event.Error, err.Error(), d)
		return "error: " + a.Mask(err.Error()), true
	}
	Record(a, call, event.OK, "", d)
	return a.Mask(text), false
}

// allow decides a call outside the step's tools: a --grant for the tool,
// else the person at the terminal for exactly this call, else denied.
// Every grant and denial is an audit event.
func allow(ctx context.Context, a *run.Attempt, call llm.ToolCall) (string, bool) {
	digest := ask.ArgsDigest(call.Arguments)
	audit := func(t event.Type, by string) {
		a.Emit(event.Event{Type: t, Step: a.Step().ID, Tool: call.Name, Digest: digest, Subject: a.Mask(ask.CallSubject(call.Arguments)), DecidedBy: by})
	}
	if a.Granted(call.Name) {
		audit(event.ToolGranted, "grant")
		return "", true
	}
	asker := a.ToolAsker()
	if asker == nil {
		audit(event.ToolDenied, "headless")
		return "no one is at a terminal to allow it (grant it with --grant " + call.Name + ")", false
	}
	ok, err := asker(ctx, ask.ToolCallRequest{RunID: a.RunID(), Step: a.Step().ID, Tool: call.Name, Arguments: a.Mask(call.Arguments), Digest: digest})
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
func runToolDef(ctx context.Context, a *run.Attempt, def *chain.ToolDef, dir, args string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return "", fmt.Errorf("the arguments are not JSON: %v", err)
	}
	if def.Schema != nil {
		if err := def.Schema.Validate(v); err != nil {
			return "", fmt.Errorf("the arguments do not satisfy %s's schema: %s", def.Name, given.SchemaMessage(err))
		}
	}
	return a.RunTool(ctx, def.Executor, dir, interp.DataValue(v))
}

// Record records one tool call in the audit trail: a kind records so the
// calls it answers itself (its completion tool), as Call records the
// calls it runs.
func Record(a *run.Attempt, call llm.ToolCall, status event.Status, detail string, ms int64) {
	e := event.Event{Type: event.ToolCall, Step: a.Step().ID, Tool: call.Name, Digest: ask.ArgsDigest(call.Arguments),
		Subject: a.Mask(ask.CallSubject(call.Arguments)), Status: status, DurationMS: ms}
	if status == event.Error {
		e.Error = detail
	} else {
		e.Detail = detail
	}
	a.Emit(e)
}

// Deny records a call of the step's model that the kind refused to run
// (a task chain's tools_policies) for why: a tool.denied the chain
// decided, then the call in the audit trail, as Call records the calls
// it runs.
func Deny(a *run.Attempt, call llm.ToolCall, why string) {
	a.Emit(event.Event{Type: event.ToolDenied, Step: a.Step().ID, Tool: call.Name, Digest: ask.ArgsDigest(call.Arguments), DecidedBy: "chain"})
	Record(a, call, event.Denied, why, 0)
}
