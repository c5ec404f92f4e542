package contenox

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// Files written for earlier versions of contenox's task-chain format use
// names it has since changed. Each older name is read as the newer one
// with a warning that names both, so the difference is never silent; a
// feature of those versions chainrun has no equal of is refused, naming
// what is missing and why.

// olderExecuteConfig are execute_config's older names and the names they
// became: hooks is tools, hook_policies is tools_policies (same values).
var olderExecuteConfig = sync.OnceValue(func() map[string]string {
	return map[string]string{"hooks": "tools", "hook_policies": "tools_policies"}
})

// olderHandlers are task handlers' older names: hook is tools (its call
// written under hook: instead of tools:).
var olderHandlers = sync.OnceValue(func() map[string]string {
	return map[string]string{"hook": HandlerTools}
})

// renameOlder reads the older names of a task's execute_config and
// handler as the newer ones, warning at each. A task that writes both
// names of one field is refused: which one holds would be a guess.
func (tc *taskChain) renameOlder(k *taskKeys, at func(string) yamlpos.Pos, prefix string) {
	ec := k.ExecuteConfig
	for _, old := range interp.SortedKeys(keySet(ec)) {
		newer, ok := olderExecuteConfig()[old]
		if !ok {
			continue
		}
		if _, both := ec[newer]; both {
			tc.d.Errorf(at("execute_config"), "%sexecute_config: %s and %s are one field (%s is its older name): write only %s", prefix, old, newer, old, newer)
			continue
		}
		tc.d.Warnf(at("execute_config"), "%sexecute_config: %s is the older name of %s: read as %s", prefix, old, newer, newer)
		ec[newer] = ec[old]
		delete(ec, old)
	}
	if newer, ok := olderHandlers()[k.Handler]; ok {
		if k.Hook == nil {
			tc.d.SoftErrorf(at("handler"), "%sa hook task (handler hook, the older name of %s) needs hook: {name, tool_name, args}, the hook and the tool it calls", prefix, newer)
			k.Handler = HandlerNoop
			return
		}
		if k.Tools != nil {
			tc.d.Errorf(at("tools"), "%shandler %s is the older name of %s, whose call is hook: write hook or use handler %s with tools", prefix, k.Handler, newer, newer)
			return
		}
		tc.d.Warnf(at("handler"), "%shandler %s is the older name of %s: its hook: is read as tools:", prefix, k.Handler, newer)
		k.Handler, k.Tools, k.Hook = newer, k.Hook, nil
	}
	if k.Hook != nil {
		tc.d.Errorf(at("hook"), "%shook: is the call of a hook task (handler: hook, now tools)", prefix)
	}
}

// refusedFeatures are fields of earlier contenox versions chainrun has
// no equal of, each with what is missing and why.
var refusedFeatures = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"compact_policy": "chainrun does not compact a model task's conversation as it nears the model's context window (it sends the conversation whole and does not know the window's size, so trigger_fraction has nothing to measure); cap the task's input with input_max_bytes (a conversation keeps its latest messages) or summarize it in a chat_completion task before",
	}
})

// refuseFeatures refuses the execute_config fields of refusedFeatures.
func (tc *taskChain) refuseFeatures(ec map[string]any, at yamlpos.Pos, prefix string) {
	for _, key := range interp.SortedKeys(keySet(ec)) {
		if why, ok := refusedFeatures()[key]; ok {
			tc.d.Errorf(at, "%s%s is not supported: %s", prefix, key, why)
			delete(ec, key)
		}
	}
}

// missingHooks say why a hook of contenox's is not one of chainrun's,
// and what does its work instead: the hooks its versions built in
// (localhooks/, and the services' hooks).
var missingHooks = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"nws":                   "the US National Weather Service API",
		"webtools":              "fetching and searching the web",
		"ntfy":                  "push notifications through ntfy.sh",
		"plan_summary":          "contenox's plan service",
		"plan_manager":          "contenox's plan service",
		"js_execution":          "running JavaScript in contenox's sandbox",
		"webhook":               "an HTTP call to a URL its args name",
		"ssh":                   "running commands on a remote host over SSH",
		"vector_search":         "a search of contenox's vector store",
		"search_knowledge":      "a search of contenox's vector store",
		"rag":                   "a search of contenox's vector store",
		"resolve_search_result": "reading a document of contenox's vector store",
		"command_router":        "contenox's dispatch of a /command to a hook",
		"echo":                  "contenox's test hook that answers its input, which a tools task calls but no model is offered",
		"print":                 "contenox's hook that answers its message argument, which a tools task calls but no model is offered",
		"mock":                  "contenox's test hook",
	}
})

// hookWhy is the reason a named hook is refused: what a hook contenox
// built in did, else that the name is a hook registered with a contenox
// server (a remote hook or an MCP server), which a chain file cannot
// configure for chainrun.
func hookWhy(name string) string {
	what, ok := missingHooks()[name]
	if !ok {
		return " (" + name + " is no hook contenox built in: a remote hook or MCP server registered with a contenox server, which chainrun cannot reach from a task chain; a chain step of type http or mcp calls such a service)"
	}
	return " (" + name + " is " + what + ": chainrun has no built-in tool for it; a chain step of type http, or an MCP connection, calls such a service)"
}

// olderHooks are hooks' older names: local_exec is local_shell (contenox
// from 2026-02-14 until it was renamed the next day).
var olderHooks = sync.OnceValue(func() map[string]string {
	return map[string]string{"local_exec": HookLocalShell}
})

// renameHook reads a hook's older name as the newer, warning.
func (tc *taskChain) renameHook(name string, at yamlpos.Pos, prefix string) string {
	newer, ok := olderHooks()[name]
	if !ok {
		return name
	}
	tc.d.Warnf(at, "%shook %s is the older name of %s: read as %s", prefix, name, newer, newer)
	return newer
}

// olderMacros are macros' older names: {{hookservice:…}} is
// {{toolservice:…}}.
var olderMacros = sync.OnceValue(func() map[string]string {
	return map[string]string{"hookservice": "toolservice"}
})

// renameMacro reads a macro's older name as the newer, warning once per
// use.
func (tc *taskChain) renameMacro(at yamlpos.Pos, prefix, macro string) string {
	name, rest, _ := strings.Cut(macro, ":")
	newer, ok := olderMacros()[name]
	if !ok {
		return macro
	}
	tc.d.Warnf(at, "%smacro {{%s}}: %s is the older name of %s: read as {{%s:%s}}", prefix, macro, name, newer, newer, rest)
	return newer + ":" + rest
}

// olderOperator reads the branch operators of an earlier contenox format
// as a range, with a warning: > and gt (greater than the number when
// holds), < and lt (less than it), in_range ("min-max" or "min,max",
// both ends in). A when that is not a number is refused at the branch.
func (tc *taskChain) olderOperator(b *chain.Branch, prefix string) {
	op := b.Operator
	var lo, hi string
	switch op {
	case ">", "gt", "<", "lt":
		n, err := strconv.ParseFloat(strings.TrimSpace(b.When), 64)
		if err != nil {
			tc.d.Errorf(b.Pos, "%soperator %q (greater or less than, of an earlier contenox format): when %q is not a number", prefix, op, b.When)
			return
		}
		if op == ">" || op == "gt" {
			lo, hi = strconv.FormatFloat(math.Nextafter(n, math.Inf(1)), 'g', -1, 64), "+Inf"
		} else {
			lo, hi = "-Inf", strconv.FormatFloat(math.Nextafter(n, math.Inf(-1)), 'g', -1, 64)
		}
	case "in_range":
		w := strings.TrimSpace(b.When)
		a, c, ok := strings.Cut(w, ",")
		if !ok {
			// "5-7", the first - after a sign being the separator
			i := strings.Index(strings.TrimLeft(w, "+-"), "-")
			if i < 0 {
				a, c = w, w
			} else {
				i += len(w) - len(strings.TrimLeft(w, "+-"))
				a, c = w[:i], w[i+1:]
			}
		}
		lo, hi = strings.TrimSpace(a), strings.TrimSpace(c)
	default:
		return
	}
	b.Operator, b.When, b.ByFirstNumber = chain.OpRange, lo+","+hi, true
	tc.d.Warnf(b.Pos, "%soperator %q is of an earlier contenox format: read as range %q, of the result's first number as contenox read it (a result holding none takes no such branch, where contenox failed the run)", prefix, op, b.When)
}

// referenceResults are the results reference 003 lists for a handler
// that contenox's engine, and chainrun, give under other words.
var referenceResults = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		HandlerChat:    {"stop": "executed", "length": "executed"},
		HandlerExecute: {"ok": "tools_executed", "error": "a failure, which on_failure catches"},
	}
})

// warnReferenceResults warns at an equals branch whose when is a result
// reference 003 names but the handler never gives: the branch is never
// taken, and a run would silently go elsewhere.
func (tc *taskChain) warnReferenceResults(s *chain.State, handler, prefix string) {
	words := referenceResults()[handler]
	for _, b := range s.Branches {
		if instead, ok := words[strings.TrimSpace(b.When)]; ok && b.Operator == chain.OpEquals {
			tc.d.Warnf(b.Pos, "%swhen %q is never the result of a %s task: reference 003 names it, the engine gives %s; this branch is not taken", prefix, b.When, handler, instead)
		}
	}
}
