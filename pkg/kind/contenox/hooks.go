package contenox

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/toolcall"
	"github.com/chainrun/chainrun/pkg/tools"
)

// hookTool runs the call of a hook's tool a model made (the executor of
// a chain tool the mission or oracle hook defines): the call's arguments,
// already checked against the tool's schema, are its arguments.
func hookTool(_ context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	var args map[string]any
	if v, ok := a.Lookup("args"); ok {
		args, _ = v.Data.(map[string]any)
	}
	res, err := callHook(a, cx.HandlerOf(s).Hook, cx.HandlerOf(s).Tool, args)
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	return run.Outcome{Value: interp.DataValue(res)}, nil
}

// toolsTask is a tools task: it calls one tool of a hook, no model
// involved, with the task's args and, when its input is a JSON object,
// the input's fields for the arguments the task leaves open (the written
// args are the chain author's: an input never replaces a fixed command
// or file). Its output is the tool's answer, or the output_template
// rendered over it, which is then also the result the branches match
// (tools_executed without one).
func toolsTask(ctx context.Context, a *run.Attempt, in taskIn) (run.Outcome, error) {
	h := cx.HandlerOf(a.Step())
	args := map[string]any{}
	for k, v := range h.Args {
		args[cx.HookArgName(h.Tool, k)] = v
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && h.Tool == "Bash" && k == "timeout_ms" {
			args[k] = n // a local_shell timeout the chain read as timeout_ms
		}
	}
	if obj, ok := in.value.Data.(map[string]any); ok {
		for k, v := range obj {
			if h.Tool == "Bash" && shellOnlyArgs[k] {
				continue // where and with what a command runs is the chain's
			}
			if k = cx.HookArgName(h.Tool, k); args[k] == nil {
				args[k] = v
			}
		}
	}
	var res any
	var chat []chatMsg
	var err error
	switch h.Hook {
	case cx.HookEcho, cx.HookPrint:
		res, chat, err = testHook(h, in)
	case cx.HookLocalFS, cx.HookLocalShell:
		res, err = builtinHook(ctx, a, h.Tool, args)
	default:
		res, err = callHook(a, h.Hook, h.Tool, args)
	}
	if err != nil {
		// a tool may fail for the moment: retry_on_failure tries again
		return run.Outcome{}, fmt.Errorf("%s %s: %w", h.Hook, h.Tool, err)
	}
	setChat(a, chat)
	out := run.Outcome{Value: interp.DataValue(res), Result: cx.ResultToolsExecuted}
	if h.Output != nil {
		data := res
		if text, ok := res.(string); ok && interp.TextValue(text).Data != nil {
			data = interp.TextValue(text).Data
		}
		text, err := renderGo(h.Output, data)
		if err != nil {
			return run.Outcome{}, run.Permanent(fmt.Errorf("output_template: %w", err))
		}
		out.Value, out.Result = interp.TextValue(text), text
	}
	return out, nil
}

// builtinHook calls a built-in file or shell tool for a tools task, in
// the step's directory and confined to it like a model's call.
func builtinHook(ctx context.Context, a *run.Attempt, tool string, args map[string]any) (any, error) {
	env, err := toolcall.Env(ctx, a)
	if err != nil {
		return nil, err
	}
	env.Commands = commandPolicy(a.Step())
	raw, _ := json.Marshal(args)
	call := llm.ToolCall{Name: tool, Arguments: string(raw)}
	start := a.Now()
	text, err := tools.Run(ctx, env, tool, raw)
	d := a.Now().Sub(start).Milliseconds()
	if err != nil {
		toolcall.Record(a, call, event.Error, err.Error(), d)
		return nil, err
	}
	toolcall.Record(a, call, event.OK, "", d)
	return text, nil
}

// callHook calls a tool of the mission or oracle hook.
func callHook(a *run.Attempt, hook, tool string, args map[string]any) (res any, err error) {
	a.Exclusive(func() {
		switch hook {
		case cx.HookMission:
			res, err = mission(a, tool, args)
		case cx.HookOracle:
			res, err = oracle(a, tool, args)
		default:
			err = fmt.Errorf("hook %q has no tools here", hook)
		}
	})
	return res, err
}

// hookState reads what a hook has recorded: what the running task
// changed, else the run's context, into rec.
func hookState(a *run.Attempt, hook string, rec any) {
	for _, name := range []string{record.HookVar, response.ContextVar} {
		if v, ok := a.Vars().Get(name); ok {
			if m, ok := v.Data.(map[string]any); ok && m[hook] != nil {
				b, _ := json.Marshal(m[hook])
				_ = json.Unmarshal(b, rec)
				return
			}
		}
	}
}

// setHookState records what a hook keeps; the flow merges it into the
// context after the task (pkg/run/flow's mergeHooks).
func setHookState(a *run.Attempt, hook string, rec any) {
	pending := map[string]any{}
	if v, ok := a.Vars().Get(record.HookVar); ok {
		if m, ok := v.Data.(map[string]any); ok {
			pending = maps.Clone(m)
		}
	}
	b, _ := json.Marshal(rec)
	var d any
	_ = json.Unmarshal(b, &d)
	pending[hook] = d
	a.Vars().Set(record.HookVar, interp.Value{Data: pending})
}

// decodeArgs reads a call's arguments into the tool's own shape.
func decodeArgs(args map[string]any, into any) error {
	b, _ := json.Marshal(args)
	if err := json.Unmarshal(b, into); err != nil {
		return fmt.Errorf("the arguments do not fit the tool: %v", err)
	}
	return nil
}
