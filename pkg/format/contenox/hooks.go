package contenox

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// hookNames lists the hooks for messages.
var hookNames = []string{HookLocalFS, HookLocalShell, HookMission, HookOracle}

// hookModelTools are the tools each hook offers a model.
var hookModelTools = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		HookLocalFS:    {"Read", "Write", "Edit", "Glob", "Grep"},
		HookLocalShell: {"Bash"},
		HookMission:    {ToolMissionPlan, ToolMissionReport, ToolMissionFinish, ToolMissionAsk},
		HookOracle:     {ToolSubmitVerdict},
	}
})

// hookCallable are the tools a tools task may call on each hook, by the
// names contenox gives them; the value is the tool that runs.
var hookCallable = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		HookLocalFS: {"read_file": "Read", "write_file": "Write", "edit_file": "Edit",
			"Read": "Read", "Write": "Write", "Edit": "Edit", "Glob": "Glob", "Grep": "Grep"},
		HookLocalShell: {HookLocalShell: "Bash", "Bash": "Bash"},
		HookMission: {ToolMissionPlan: ToolMissionPlan, ToolMissionReport: ToolMissionReport,
			ToolMissionFinish: ToolMissionFinish, ToolMissionAsk: ToolMissionAsk},
		HookOracle: {ToolSubmitVerdict: ToolSubmitVerdict, ToolVerdictState: ToolVerdictState},
		HookEcho:   {HookEcho: HookEcho},
		HookPrint:  {HookPrint: HookPrint},
	}
})

// hookOf is the hook a tool belongs to, "" for none.
func hookOf(tool string) string {
	for _, h := range hookNames {
		if slices.Contains(hookModelTools()[h], tool) {
			return h
		}
	}
	return ""
}

// toolList maps an execute_config.tools allowlist onto tools: each hook
// its tools, "*" local_fs and local_shell (contenox's mission and oracle
// exist only for a run bound to a mission or an ask, so * never holds
// them), "!name" taking a hook out of *. A hook chainrun does not have is
// refused by name.
func (tc *taskChain) toolList(v any, at yamlpos.Pos, prefix string) []string {
	list, ok := v.([]any)
	if v != nil && !ok {
		tc.d.Errorf(at, "%stools must be a list of hook names", prefix)
		return nil
	}
	hooks := map[string]bool{}
	var star bool
	var except []string
	for _, x := range list {
		name := fmt.Sprint(x)
		if strings.HasPrefix(name, "!") {
			name = "!" + tc.renameHook(strings.TrimPrefix(name, "!"), at, prefix)
		} else {
			name = tc.renameHook(name, at, prefix)
		}
		switch {
		case name == "*":
			star = true
		case strings.HasPrefix(name, "!"):
			except = append(except, strings.TrimPrefix(name, "!"))
		case hookModelTools()[name] != nil:
			hooks[name] = true
		default:
			tc.d.Errorf(at, "%stool hook %q is not supported%s: %s", prefix, name, hookWhy(name), hooksHave)
		}
	}
	if star {
		hooks[HookLocalFS], hooks[HookLocalShell] = true, true
	}
	for _, h := range except {
		delete(hooks, h)
	}
	var out []string
	for _, h := range hookNames {
		if hooks[h] {
			out = append(out, hookModelTools()[h]...)
			tc.defineHookTools(h, at)
		}
	}
	return out
}

// hooksHave says which hooks chainrun has, for refusals.
const hooksHave = "chainrun has local_fs (Read, Write, Edit, Glob, Grep), local_shell (Bash), * (both), mission (mission_plan, mission_report, mission_finish, mission_ask_attention) and oracle (submit_verdict, verdict_state); a tools task may call echo and print too"

// defineHookTools adds the mission or oracle hook's tools to the chain as
// chain-defined tools whose executors run the hook (the built-in file and
// shell tools need none).
func (tc *taskChain) defineHookTools(hook string, at yamlpos.Pos) {
	for _, name := range hookModelTools()[hook] {
		spec, ok := hookToolSpecs()[name]
		if !ok || tc.c.Tool(name) != nil {
			continue
		}
		exec := &chain.Step{Pos: at, FieldPos: map[string]yamlpos.Pos{"type": at}}
		exec.Type = string(chain.KindTransform)
		chain.SetKey(exec, "expr", "args")
		exec.Handler = &Handler{Name: HandlerHook, Hook: hook, Tool: name}
		tc.c.Tools = append(tc.c.Tools, &chain.ToolDef{Name: name, Description: spec.description, InputSchema: spec.schema(), Executor: exec, Pos: at})
	}
}

// hookCall reads a tools task's tools: {name, tool_name, args}.
func (tc *taskChain) hookCall(h *Handler, v any, at yamlpos.Pos, prefix string) {
	m, ok := v.(map[string]any)
	if !ok {
		tc.d.Errorf(at, "%sa tools task needs tools: {name, tool_name, args}, the hook and the tool it calls", prefix)
		return
	}
	for _, k := range interp.SortedKeys(keySet(m)) {
		if !slices.Contains([]string{"name", "tool_name", "args"}, k) {
			tc.d.Errorf(at, "%stools: unknown field %q%s", prefix, k, spell.DidYouMean(k, []string{"name", "tool_name", "args"}))
		}
	}
	h.Hook, _ = m["name"].(string)
	h.Hook = tc.renameHook(h.Hook, at, prefix)
	tool, _ := m["tool_name"].(string)
	callable, known := hookCallable()[h.Hook]
	switch {
	case h.Hook == "":
		tc.d.Errorf(at, "%stools.name is required: the hook the task calls", prefix)
		return
	case !known:
		tc.d.Errorf(at, "%stool hook %q is not supported%s: %s", prefix, h.Hook, hookWhy(h.Hook), hooksHave)
		return
	case tool == "":
		// a call without tool_name (contenox before it had one) calls
		// the hook's only tool, under whichever of its names
		if only := onlyTool(callable); only != "" {
			tool = only
		}
	}
	h.Tool = callable[tool]
	if h.Tool == "" {
		names := make([]string, 0, len(callable))
		for n := range callable {
			names = append(names, n)
		}
		sort.Strings(names)
		tc.d.Errorf(at, "%stools.tool_name %q is not a tool of %s%s; its tools are %s", prefix, tool, h.Hook, spell.DidYouMean(tool, names), strings.Join(names, ", "))
	}
	if args, ok := m["args"].(map[string]any); ok {
		h.Args = map[string]string{}
		for k, v := range args {
			h.Args[k] = fmt.Sprint(v)
			if list, ok := v.([]any); ok {
				// a list (local_shell's args) is kept as JSON
				b, _ := json.Marshal(list)
				h.Args[k] = string(b)
			}
		}
		tc.olderShellArgs(h, at, prefix)
	} else if m["args"] != nil {
		tc.d.Errorf(at, "%stools.args must be a mapping of argument names to values", prefix)
	}
	tc.warnInputDecides(h, at, prefix)
}

// onlyTool is the tool a hook's callable names all run, "" when they
// run more than one.
func onlyTool(callable map[string]string) string {
	var only, name string
	for n, t := range callable {
		if only != "" && t != only {
			return ""
		}
		if only = t; name == "" || n < name {
			name = n
		}
	}
	return name
}

// inputDecides are the arguments of a built-in tool that decide what it
// does to the machine: a tools task that leaves one open lets whoever
// gives the run's input choose it.
var inputDecides = sync.OnceValue(func() map[string]struct{ arg, what string } {
	return map[string]struct{ arg, what string }{
		"Bash":  {"command", "the shell command it runs"},
		"Write": {"file_path", "the file it writes"},
		"Edit":  {"file_path", "the file it edits"},
	}
})

// warnInputDecides warns when a tools task leaves the argument that
// decides what its tool does to the run's input.
func (tc *taskChain) warnInputDecides(h *Handler, at yamlpos.Pos, prefix string) {
	d, ok := inputDecides()[h.Tool]
	if !ok {
		return
	}
	for k := range h.Args {
		if HookArgName(h.Tool, k) == d.arg {
			return
		}
	}
	tc.d.Warnf(at, "%stools.args sets no %s: the run's input decides %s (whoever starts the run, also over MCP); write it in args", prefix, d.arg, d.what)
}

// hookToolSpec is how a hook's tool is offered to a model.
type hookToolSpec struct {
	description string
	schema      func() map[string]any
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func enum(desc string, values ...string) map[string]any {
	return map[string]any{"type": "string", "description": desc, "enum": values}
}

func object(required []string, props map[string]any) map[string]any {
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

var hookToolSpecs = sync.OnceValue(func() map[string]hookToolSpec {
	return map[string]hookToolSpec{
		ToolMissionPlan: {
			description: "Replace the mission's plan with this complete snapshot: entries left out are removed. Give an entry's id back to keep it; leave id out for a new one (the answer gives it its id). Completed entries keep their text. Returns the stored plan and its revision.",
			schema: func() map[string]any {
				entry := object([]string{"content", "status", "priority"}, map[string]any{
					"id":       str("The entry's id from an earlier revision; none for a new entry."),
					"content":  str("The step, in a few words."),
					"status":   enum("Where the step stands.", "pending", "in_progress", "completed"),
					"priority": enum("How much it matters.", "high", "medium", "low"),
				})
				return object([]string{"entries"}, map[string]any{
					"entries":     map[string]any{"type": "array", "description": "Every entry of the plan, in order.", "items": entry},
					"explanation": str("One line: what changed in this revision and why."),
				})
			},
		},
		ToolMissionReport: {
			description: "File a report on the mission: progress, a finding worth attention, a blocker you must not decide alone, or the result. Returns the report's id.",
			schema: func() map[string]any {
				return object([]string{"summary"}, map[string]any{
					"kind":    enum("What the report is (default progress).", "progress", "finding", "blocker", "result"),
					"summary": str("One line."),
					"detail":  str("More, when one line is not enough."),
					"refs":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Files or URLs the report points at."},
					"handover": object(nil, map[string]any{
						"outcome":         str("What the mission achieved, in one line."),
						"artifacts":       map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Files or URLs a follow-up mission uses."},
						"handoverForNext": str("What a follow-up mission should pick up."),
						"caveats":         str("What a follow-up mission must not take for granted."),
					}),
				})
			},
		},
		ToolMissionFinish: {
			description: "End the mission, once: landed (it succeeded), derailed (it failed) or stuck (it cannot go on unattended). A mission that ended does not move again.",
			schema: func() map[string]any {
				return object([]string{"status"}, map[string]any{
					"status": enum("How the mission ended.", "landed", "derailed", "stuck", "abandoned"),
					"reason": str("One line: why, for anything but landed."),
				})
			},
		},
		ToolMissionAsk: {
			description: "Ask for a decision you may not make alone. A run has no one to answer it: it is filed as a blocker report for whoever reads the run.",
			schema: func() map[string]any {
				return object([]string{"summary"}, map[string]any{
					"summary": str("The decision you need, in one line."),
					"detail":  str("What you tried and what the options are."),
				})
			},
		},
		ToolSubmitVerdict: {
			description: "Give the verdict on the ask that is this run's input. A permission ask (a gated tool call) takes approve, deny or wait; an attention ask (a question) takes answer or wait. Returns {accepted, outcome, message}: accepted false means nothing was recorded and message says what to correct.",
			schema: func() map[string]any {
				return object([]string{"verdict", "askId"}, map[string]any{
					"verdict":  enum("approve, deny or wait on a permission ask; answer or wait on an attention ask.", "approve", "deny", "answer", "wait"),
					"answer":   str("With answer: one short sentence the asker can act on."),
					"guidance": str("With deny: one short sentence saying what to do instead."),
					"askId":    str("The askId of the input, exactly."),
				})
			},
		},
	}
})
