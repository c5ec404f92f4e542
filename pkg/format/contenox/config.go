package contenox

import (
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// executeConfigKeys are the keys of a model task's execute_config.
var executeConfigKeys = []string{"model", "provider", "models", "providers", "tools", "hide_tools", "tools_policies", "max_tokens", "retry_policy", "think", "shift", "pass_clients_tools", "temperature"}

// executeConfig maps a model task's execute_config onto its agent step.
// A model is provider/model (contenox's provider names are chainrun's
// providers: ollama, openai and anthropic are built in, any other is the
// provider of that name in config); contenox's {{var:NAME|default}} values
// come from its caller, so here the written default is taken, and a model
// left empty is the run's model.
func (tc *taskChain) executeConfig(step *chain.Step, k *taskKeys, at yamlpos.Pos, prefix string) {
	d := tc.d
	ec := k.ExecuteConfig
	for _, key := range slices.Sorted(maps.Keys(ec)) {
		if !slices.Contains(executeConfigKeys, key) {
			d.Errorf(at, "%sunknown field %q%s", prefix, key, spell.DidYouMean(key, executeConfigKeys))
		}
	}
	provider := varDefault(ec["provider"])
	chain.Own[chain.AgentFields](step).Model = modelName(provider, varDefault(ec["model"]))
	if step.Agent().Model != "" {
		step.FieldPos["model"] = at
	}
	providers := varList(ec["providers"])
	for i, m := range varList(ec["models"]) {
		p := provider
		if i < len(providers) && providers[i] != "" {
			p = providers[i]
		}
		if m = modelName(p, m); m != "" && m != step.Agent().Model && !slices.Contains(step.Agent().FallbackModels, m) {
			chain.Own[chain.AgentFields](step).FallbackModels = append(step.Agent().FallbackModels, m)
		}
	}
	if mt := varDefault(ec["max_tokens"]); mt != "" {
		n, err := strconv.Atoi(mt)
		if err != nil || n < 0 {
			d.Errorf(at, "%smax_tokens %q is not a number of tokens", prefix, mt)
		}
		chain.Own[chain.AgentFields](step).MaxTokens = n
	}
	if t, ok := number(ec["temperature"]); ok {
		chain.Own[chain.AgentFields](step).Temperature = &t
	}
	if rp, ok := ec["retry_policy"].(map[string]any); ok {
		step.Retry = retryPolicy(rp)
		step.FieldPos["retry"] = at
		tc.fallbackModel(step, rp, provider, at, prefix)
	}
	if v := varDefault(ec["think"]); v != "" && v != "false" && v != "off" {
		d.Warnf(at, "%sthink is not applied: chainrun sends the model's own defaults", prefix)
	}
	if b, _ := ec["shift"].(bool); b {
		d.Warnf(at, "%sshift is not applied: contenox dropped a conversation's oldest messages when it outgrew the chain's token_limit; chainrun applies no token_limit and sends the conversation whole (input_max_bytes keeps its latest messages)", prefix)
	}
	if b, _ := ec["pass_clients_tools"].(bool); b {
		d.Warnf(at, "%spass_clients_tools is not applied: a run has no client tools", prefix)
	}
	chain.Own[chain.AgentFields](step).Tools = hideTools(tc.toolList(ec["tools"], at, prefix), ec["hide_tools"])
	tc.tools, tc.hooks = step.Agent().Tools, nil
	for _, t := range step.Agent().Tools {
		if h := hookOf(t); h != "" && !slices.Contains(tc.hooks, h) {
			tc.hooks = append(tc.hooks, h)
		}
	}
	if len(step.Agent().Tools) > 0 {
		step.FieldPos["tools"] = at
	}
	tc.toolsPolicies(HandlerOf(step), ec["tools_policies"], at, prefix)
}

// hideTools takes out of tools those hide_tools names (a list of the
// file, or already read): a tool by its name, or by the leaf of
// contenox's hook.tool.
func hideTools(tools []string, hide any) []string {
	names, ok := hide.([]string)
	if !ok {
		names = varList(hide)
	}
	for _, h := range names {
		tools = slices.DeleteFunc(tools, func(t string) bool {
			_, leaf, _ := strings.Cut(h, ".")
			return t == h || t == leaf
		})
	}
	return tools
}

// modelName is provider/model, or model as written when it names its
// provider already (or no provider is given).
func modelName(provider, model string) string {
	switch {
	case model == "":
		return ""
	case provider != "" && !strings.Contains(model, "/"):
		return provider + "/" + model
	}
	return model
}

// varList reads a list of texts, each a value or {{var:…}} default.
func varList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		out = append(out, varDefault(x))
	}
	return out
}

// retryPolicy maps contenox's retry_policy onto a step's retry:
// max_attempts in all, initial_backoff doubling up to max_backoff.
func retryPolicy(rp map[string]any) *chain.Retry {
	r := &chain.Retry{Max: 1}
	if n, ok := number(rp["max_attempts"]); ok && n >= 1 {
		r.Max = int(n)
	}
	if s, ok := rp["initial_backoff"].(string); ok {
		if dur, err := time.ParseDuration(s); err == nil {
			r.DelayMS = int(dur.Milliseconds())
			r.Backoff = 2
		}
	}
	if s, ok := rp["max_backoff"].(string); ok {
		if dur, err := time.ParseDuration(s); err == nil && dur > 0 {
			r.MaxDelayMS = int(dur.Milliseconds())
		}
	}
	return r
}

// fallbackModel maps retry_policy's fallback_model_id: contenox turns to
// it after fallback_after failures in a row of the step's max_attempts
// (llmretry.Do), so the step asks its model fallback_after times, then
// the fallback. With fallback_after 0 (or not fewer than max_attempts)
// contenox never asks it: neither does chainrun, and a warning says so.
func (tc *taskChain) fallbackModel(step *chain.Step, rp map[string]any, provider string, at yamlpos.Pos, prefix string) {
	fb, _ := rp["fallback_model_id"].(string)
	if fb == "" {
		return
	}
	after, _ := number(rp["fallback_after"])
	if after < 1 || int(after) >= step.Retry.Max {
		tc.d.Warnf(at, "%sretry_policy.fallback_model_id %q is never asked: contenox turns to it after fallback_after failures in a row, and fallback_after (%v) is not between 1 and max_attempts (%d)", prefix, fb, after, step.Retry.Max)
		return
	}
	step.Retry.Max = int(after)
	if m := modelName(provider, fb); !slices.Contains(step.Agent().FallbackModels, m) {
		chain.Own[chain.AgentFields](step).FallbackModels = append(step.Agent().FallbackModels, m)
	}
}

// number reads a number of a decoded file, which YAML gives as an int or
// a float.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// varDefault resolves a {{var:a|var:b|default}} value to its written
// default ("" when there is none); other values are their text.
func varDefault(v any) string {
	if v == nil {
		return ""
	}
	s := strings.TrimSpace(fmt.Sprint(v))
	inner, ok := strings.CutPrefix(s, "{{var:")
	if !ok || !strings.HasSuffix(inner, "}}") {
		return s
	}
	for _, alt := range strings.Split(strings.TrimSuffix(inner, "}}"), "|")[1:] {
		if alt = strings.TrimSpace(alt); !strings.HasPrefix(alt, "var:") {
			return alt
		}
	}
	return ""
}

func keySet(m map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// Where a macro stands decides what it expands to.
type macroMode int

const (
	// macroSystem is a system instruction: plain text, made a chainrun
	// template whose only references are {{edge_count:a->b}}'s counters.
	macroSystem macroMode = iota
	// macroGo is a Go template (prompt_template, print, output_template):
	// what is not a macro is the template's own, {{edge_count:a->b}} an
	// index of the variables it is rendered with.
	macroGo
)

// expandMacros turns contenox's macros into their values, as contenox
// does when a chain starts: {{date}}, {{date:FMT}}, {{now}}, {{now:FMT}}
// (the time the run, or resume, loaded the chain; a system instruction's
// {{now}} is the date), {{host}}, {{host:os}}, {{host:arch}},
// {{var:NAME|default}} (its default), {{chain:id}}, {{tools}} and
// {{toolservice:list}} (the task's hooks and their tools, as JSON),
// {{toolservice:tools HOOK}}, {{toolservice:tools}} and
// {{toolservice:hooks}} (an earlier format's) the hooks' names; {{edge_count:a->b}} is counted when the
// task runs. In a system instruction any other {{name}} or {{name:arg}} is
// refused; in a Go template it is the template's.
func (tc *taskChain) expandMacros(at yamlpos.Pos, prefix, text string, mode macroMode) string {
	var b strings.Builder
	literal := func(s string) {
		if mode == macroSystem {
			s = escapeBraces(s)
		}
		b.WriteString(s)
	}
	for {
		i := strings.Index(text, "{{")
		j := -1
		if i >= 0 {
			j = strings.Index(text[i:], "}}")
		}
		if i < 0 || j < 0 {
			literal(text)
			return b.String()
		}
		literal(text[:i])
		macro := tc.renameMacro(at, prefix, text[i+2:i+j])
		text = text[i+j+2:]
		if v, ok := tc.expandMacro(macro, mode); ok {
			if strings.HasPrefix(macro, "edge_count:") {
				b.WriteString(v)
			} else {
				literal(v)
			}
			continue
		}
		name, _, _ := strings.Cut(macro, ":")
		if mode == macroSystem && isMacroName(name) {
			tc.d.Errorf(at, "%smacro {{%s}} is not supported (date, now, host, var, chain:id, tools, toolservice, edge_count)", prefix, macro)
		}
		if mode == macroGo {
			b.WriteString("{{" + macro + "}}")
		} else {
			literal("{{" + macro + "}}")
		}
	}
}

// isMacroName reports whether a {{…}} holds what contenox reads as a
// macro's name: letters, digits and _ only.
func isMacroName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// expandMacro is one macro's text, ok false when it is not one chainrun
// expands.
func (tc *taskChain) expandMacro(macro string, mode macroMode) (string, bool) {
	name, arg, hasArg := strings.Cut(macro, ":")
	arg = strings.TrimSpace(arg)
	switch name {
	case "date":
		if arg == "" {
			arg = "2006-01-02"
		}
		return now().Format(arg), true
	case "now":
		switch {
		case arg != "":
		case mode == macroSystem:
			arg = "2006-01-02"
		default:
			arg = time.RFC3339
		}
		return now().Format(arg), true
	case "host":
		switch {
		case !hasArg:
			b, _ := json.Marshal(map[string]string{"os": runtime.GOOS, "arch": runtime.GOARCH})
			return string(b), true
		case arg == "os":
			return runtime.GOOS, true
		case arg == "arch":
			return runtime.GOARCH, true
		}
	case "var":
		return varDefault("{{" + macro + "}}"), hasArg
	case "chain":
		return tc.c.Name, arg == "id"
	case "tools":
		return tc.toolsJSON(), !hasArg
	case "toolservice":
		cmd, hook, _ := strings.Cut(arg, " ")
		switch cmd {
		case "list":
			return tc.toolsJSON(), true
		case "hooks":
			// an earlier format's: the task's hooks' names
			b, _ := json.Marshal(tc.hookNames())
			return string(b), true
		case "tools":
			if strings.TrimSpace(hook) == "" {
				// contenox renders the hooks' names for tools alone
				b, _ := json.Marshal(tc.hookNames())
				return string(b), true
			}
			b, _ := json.Marshal(tc.hookTools(strings.TrimSpace(hook)))
			return string(b), true
		}
	case "edge_count":
		from, to, ok := strings.Cut(arg, "->")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if !ok || from == "" || to == "" {
			return "", false
		}
		v := edgeCounterVar(from, to)
		tc.c.Workflow.Counters[v] = chain.Edge{From: from, To: to}
		if mode == macroGo {
			return `{{index . "` + v + `"}}`, true
		}
		return "{{." + v + "}}", true
	}
	return "", false
}

// toolsJSON is {{tools}}: the task's hooks, each with its tools' names.
func (tc *taskChain) toolsJSON() string {
	out := map[string][]string{}
	for _, h := range tc.hooks {
		out[h] = tc.hookTools(h)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// hookNames are the hooks the current task offers, sorted.
func (tc *taskChain) hookNames() []string {
	out := append([]string{}, tc.hooks...)
	sort.Strings(out)
	return out
}

// hookTools are the tools of hook the current task offers, sorted.
func (tc *taskChain) hookTools(hook string) []string {
	out := []string{}
	for _, t := range tc.tools {
		if hookOf(t) == hook {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// now is the clock macros read; tests replace it.
var now = time.Now

// edgeCounterVar is the variable {{edge_count:from->to}} reads: how many
// times the run has gone from state from to state to.
func edgeCounterVar(from, to string) string {
	return "edge_count__" + taskVar(from) + "__" + taskVar(to)
}
