package chain

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// executeConfigKeys are the keys of a model task's execute_config.
var executeConfigKeys = []string{"model", "provider", "tools", "tools_policies", "max_tokens", "retry_policy", "think", "shift", "pass_clients_tools", "temperature"}

// executeConfig maps a model task's execute_config onto its agent step.
// contenox's {{var:NAME|default}} values come from its caller; here the
// written default is taken, and a model left empty is the run's model.
func (tc *taskChain) executeConfig(step *Step, k *taskKeys, at Pos, prefix string) {
	d := tc.d
	ec := k.ExecuteConfig
	for _, key := range sortedKeys(keySet(ec)) {
		if !slices.Contains(executeConfigKeys, key) {
			d.errorf(at, "%sunknown field %q%s", prefix, key, didYouMean(key, executeConfigKeys))
		}
	}
	model, provider := varDefault(ec["model"]), varDefault(ec["provider"])
	switch {
	case model != "" && provider != "" && !strings.Contains(model, "/"):
		step.Model = provider + "/" + model
	case model != "":
		step.Model = model
	}
	if step.Model != "" {
		step.FieldPos["model"] = at
	}
	if mt := varDefault(ec["max_tokens"]); mt != "" {
		n, err := strconv.Atoi(mt)
		if err != nil || n < 0 {
			d.errorf(at, "%smax_tokens %q is not a number of tokens", prefix, mt)
		}
		step.MaxTokens = n
	}
	if t, ok := ec["temperature"].(float64); ok {
		step.Temperature = &t
	}
	if rp, ok := ec["retry_policy"].(map[string]any); ok {
		step.Retry = retryPolicy(rp)
		step.FieldPos["retry"] = at
	}
	for _, key := range []string{"think", "shift"} {
		if v := varDefault(ec[key]); v != "" && v != "false" {
			d.warnf(at, "%s%s is not applied: chainrun sends the model's own defaults", prefix, key)
		}
	}
	if b, _ := ec["pass_clients_tools"].(bool); b {
		d.warnf(at, "%spass_clients_tools is not applied: a run has no client tools", prefix)
	}
	step.Tools = tc.toolList(ec["tools"], at, prefix)
	tc.tools = step.Tools
	if len(step.Tools) > 0 {
		step.FieldPos["tools"] = at
		if _, ok := ec["tools_policies"]; ok {
			d.warnf(at, "%stools_policies are not applied: chainrun's own confinement of the built-in tools applies (docs/workflows.md)", prefix)
		}
	}
}

// hookTools are contenox's tool hooks chainrun has built-in equals of.
var hookTools = map[string][]string{
	"local_fs":    {"Read", "Write", "Edit", "Glob", "Grep"},
	"local_shell": {"Bash"},
	"*":           BuiltinTools,
}

// toolList maps contenox hook names onto chainrun's built-in tools,
// refusing a hook chainrun does not have.
func (tc *taskChain) toolList(v any, at Pos, prefix string) []string {
	list, ok := v.([]any)
	if v != nil && !ok {
		tc.d.errorf(at, "%stools must be a list of hook names", prefix)
		return nil
	}
	var out []string
	for _, x := range list {
		name := fmt.Sprint(x)
		tools, known := hookTools[name]
		if !known {
			tc.d.errorf(at, "%stool hook %q is not supported: chainrun has local_fs (Read, Write, Edit, Glob, Grep), local_shell (Bash) and * (all of them)", prefix, name)
			continue
		}
		for _, t := range tools {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// retryPolicy maps contenox's retry_policy onto a step's retry.
func retryPolicy(rp map[string]any) *Retry {
	r := &Retry{Max: 1}
	if n, ok := rp["max_attempts"].(float64); ok && n >= 1 {
		r.Max = int(n)
	}
	if s, ok := rp["initial_backoff"].(string); ok {
		if dur, err := time.ParseDuration(s); err == nil {
			r.DelayMS = int(dur.Milliseconds())
			r.Backoff = 2
		}
	}
	return r
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
		if !strings.HasPrefix(alt, "var:") {
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

// expandMacros turns contenox's macros in a prompt into chainrun's:
// {{date}} and {{now:FMT}} the time the run (or resume) loaded the chain,
// {{host:os}}, {{host:arch}}, {{var:NAME|default}} its default, and
// {{edge_count:a->b}} a variable the run keeps. Any other {{name:...}}
// macro is refused.
func (tc *taskChain) expandMacros(at Pos, prefix, text string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, "{{")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.Index(text[i:], "}}")
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		macro := text[i+2 : i+j]
		text = text[i+j+2:]
		b.WriteString(tc.expandMacro(at, prefix, macro))
	}
}

func (tc *taskChain) expandMacro(at Pos, prefix, macro string) string {
	name, arg, _ := strings.Cut(strings.TrimSpace(macro), ":")
	switch name {
	case "date":
		return now().Format("2006-01-02")
	case "now":
		if arg == "" {
			return now().Format(time.RFC3339)
		}
		return now().Format(arg)
	case "host":
		switch arg {
		case "os":
			return runtime.GOOS
		case "arch":
			return runtime.GOARCH
		}
	case "var":
		return varDefault("{{" + macro + "}}")
	case "edge_count":
		if from, to, ok := strings.Cut(arg, "->"); ok && from != "" && to != "" {
			v := EdgeCounterVar(from, to)
			tc.c.Workflow.Counters[v] = Edge{From: from, To: to}
			return "{{." + v + "}}"
		}
	case "tools":
		return strings.Join(tc.tools, ", ")
	}
	if strings.HasPrefix(name, ".") {
		return "{{" + macro + "}}"
	}
	tc.d.errorf(at, "%smacro {{%s}} is not supported (date, now:FMT, host:os, host:arch, var:NAME|default, edge_count:a->b)", prefix, macro)
	return ""
}

// now is the clock macros read; tests replace it.
var now = time.Now

// EdgeCounterVar is the variable {{edge_count:from->to}} reads: how many
// times the run has gone from state from to state to.
func EdgeCounterVar(from, to string) string {
	clean := strings.NewReplacer("-", "_", ".", "_")
	return "edge_count__" + clean.Replace(from) + "__" + clean.Replace(to)
}

func parseDuration(s string) (time.Duration, error) {
	dur, err := time.ParseDuration(s)
	if err == nil && dur <= 0 {
		err = fmt.Errorf("not positive")
	}
	return dur, err
}
