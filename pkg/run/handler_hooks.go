package run

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/tools"
)

// hookTool runs the call of a hook's tool a model made (the executor of
// a chain tool the mission or oracle hook defines): the call's arguments,
// already checked against the tool's schema, are its arguments.
func (x *execution) hookTool(_ context.Context, s *chain.Step, sc scope) (outcome, error) {
	var args map[string]any
	if v, ok := sc.lookup("args"); ok {
		args, _ = v.Data.(map[string]any)
	}
	res, err := x.callHook(s.Handler.Hook, s.Handler.Tool, args)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	return outcome{value: DataValue(res)}, nil
}

// toolsTask is a tools task: it calls one tool of a hook, no model
// involved, with the task's args and, when its input is a JSON object,
// the input's fields for the arguments the task leaves open (the written
// args are the chain author's: an input never replaces a fixed command
// or file). Its output is the tool's answer, or the output_template
// rendered over it, which is then also the result the branches match
// (tools_executed without one).
func (x *execution) toolsTask(ctx context.Context, s *chain.Step, sc scope, in taskIn) (outcome, error) {
	h := s.Handler
	args := map[string]any{}
	for k, v := range h.Args {
		args[chain.HookArgName(h.Tool, k)] = v
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && h.Tool == "Bash" && k == "timeout_ms" {
			args[k] = n // a local_shell timeout the chain read as timeout_ms
		}
	}
	if obj, ok := in.value.Data.(map[string]any); ok {
		for k, v := range obj {
			if h.Tool == "Bash" && shellOnlyArgs[k] {
				continue // where and with what a command runs is the chain's
			}
			if k = chain.HookArgName(h.Tool, k); args[k] == nil {
				args[k] = v
			}
		}
	}
	var res any
	var chat []chatMsg
	var err error
	switch h.Hook {
	case chain.HookEcho, chain.HookPrint:
		res, chat, err = testHook(h, in)
	case chain.HookLocalFS, chain.HookLocalShell:
		res, err = x.builtinHook(ctx, s, sc, h.Tool, args)
	default:
		res, err = x.callHook(h.Hook, h.Tool, args)
	}
	if err != nil {
		// a tool may fail for the moment: retry_on_failure tries again
		return outcome{}, fmt.Errorf("%s %s: %w", h.Hook, h.Tool, err)
	}
	x.setChat(s, chat)
	out := outcome{value: DataValue(res), result: chain.ResultToolsExecuted}
	if h.Output != nil {
		data := res
		if text, ok := res.(string); ok && TextValue(text).Data != nil {
			data = TextValue(text).Data
		}
		text, err := renderGo(h.Output, data)
		if err != nil {
			return outcome{}, &permanentError{fmt.Errorf("output_template: %w", err)}
		}
		out.value, out.result = TextValue(text), text
	}
	return out, nil
}

// builtinHook calls a built-in file or shell tool for a tools task, in
// the step's directory and confined to it like a model's call.
func (x *execution) builtinHook(ctx context.Context, s *chain.Step, sc scope, tool string, args map[string]any) (any, error) {
	env, err := x.toolEnv(ctx, s, sc)
	if err != nil {
		return nil, err
	}
	env.Commands = commandPolicy(s)
	raw, _ := json.Marshal(args)
	call := llm.ToolCall{Name: tool, Arguments: string(raw)}
	start := x.l.now()
	text, err := tools.Run(ctx, env, tool, raw)
	d := x.l.now().Sub(start).Milliseconds()
	if err != nil {
		x.emitTool(s, call, event.Error, err.Error(), d)
		return nil, err
	}
	x.emitTool(s, call, event.OK, "", d)
	return text, nil
}

// callHook calls a tool of the mission or oracle hook.
func (x *execution) callHook(hook, tool string, args map[string]any) (any, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch hook {
	case chain.HookMission:
		return x.mission(tool, args)
	case chain.HookOracle:
		return x.oracle(tool, args)
	}
	return nil, fmt.Errorf("hook %q has no tools here", hook)
}

// hookState reads what a hook has recorded: what the running task
// changed, else the run's context, into rec.
func (x *execution) hookState(hook string, rec any) {
	for _, name := range []string{hookVar, contextVar} {
		if v, ok := x.st.get(name); ok {
			if m, ok := v.Data.(map[string]any); ok && m[hook] != nil {
				b, _ := json.Marshal(m[hook])
				_ = json.Unmarshal(b, rec)
				return
			}
		}
	}
}

// setHookState records what a hook keeps; the flow merges it into the
// context after the task (mergeHooks).
func (x *execution) setHookState(hook string, rec any) {
	pending := map[string]any{}
	if v, ok := x.st.get(hookVar); ok {
		if m, ok := v.Data.(map[string]any); ok {
			pending = maps.Clone(m)
		}
	}
	b, _ := json.Marshal(rec)
	var d any
	_ = json.Unmarshal(b, &d)
	pending[hook] = d
	x.st.set(hookVar, Value{Data: pending})
}

// decodeArgs reads a call's arguments into the tool's own shape.
func decodeArgs(args map[string]any, into any) error {
	b, _ := json.Marshal(args)
	if err := json.Unmarshal(b, into); err != nil {
		return fmt.Errorf("the arguments do not fit the tool: %v", err)
	}
	return nil
}
