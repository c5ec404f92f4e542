package contenox

import (
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// contenox's first task-chain formats (contenox/runtime, August to
// November 2025, taskengine/tasktype.go) named handlers and keys that
// later versions renamed or dropped. A file of those versions is read as
// the newer names with a warning naming both; what chainrun has no equal
// of is refused, saying what the older name did and why it cannot run.

// olderTaskKeys are task keys' older names: type is handler (before
// 2025-08-03).
var olderTaskKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{"type": "handler"}
})

// olderHookKeys are a hook call's older keys: type is name.
var olderHookKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{"type": "name"}
})

// renameKeys renames a mapping's older keys to the newer, warning at
// each; a mapping that writes both names of one key is refused.
func (tc *taskChain) renameKeys(n *yaml.Node, older map[string]string, prefix string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for old, newer := range older {
		k := yamlpos.KeyNode(n, old)
		if k == nil {
			continue
		}
		if yamlpos.KeyNode(n, newer) != nil {
			tc.d.Errorf(yamlpos.Of(k), "%s%s and %s are one field (%s is its older name): write only %s", prefix, old, newer, old, newer)
			continue
		}
		tc.d.Warnf(yamlpos.Of(k), "%s%s is the older name of %s: read as %s", prefix, old, newer, newer)
		k.Value = newer
	}
}

// olderRenamed are handlers of earlier formats that are a handler of
// chainrun's under another name, and what differs, for the warning.
var olderRenamed = sync.OnceValue(func() map[string]struct{ newer, differs string } {
	return map[string]struct{ newer, differs string }{
		"raw_string":       {HandlerPromptString, oneMessage},
		"parse_number":     {HandlerPromptInt, oneMessage},
		"parse_score":      {HandlerPromptFloat, oneMessage},
		"parse_range":      {HandlerPromptRange, oneMessage},
		"condition_key":    {HandlerPromptCondition, oneMessage},
		"parse_transition": {HandlerParseCommand, "the same"},
		"model_execution":  {HandlerChat, "model_execution failed on a text input and offered no tools; a text input starts a conversation"},
	}
})

// oneMessage is what differs in the handlers of August 2025 that asked
// the model once.
const oneMessage = "it put the system_instruction before the input in one message; it is sent as the system message"

// olderRefused are handlers of earlier formats chainrun has no equal of:
// what each did, and why it cannot run.
var olderRefused = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"embedding":         "it turned the input into an embedding vector; chainrun calls no embedding model",
		"text_to_embedding": "it turned the input into an embedding vector; chainrun calls no embedding model",
		"prompt_to_js":      "it asked the model for JavaScript to run in contenox's JavaScript sandbox; chainrun has no JavaScript runtime",
	}
})

// olderHandler reads a handler of an earlier format: a renamed one as
// the newer with a warning, one chainrun lacks refused (the task is then
// checked as a noop, so the file's other errors are found too).
func (tc *taskChain) olderHandler(k *taskKeys, at func(string) yamlpos.Pos, prefix string) {
	if r, ok := olderRenamed()[k.Handler]; ok {
		tc.d.Warnf(at("handler"), "%shandler %s is the older name of %s: read as %s (%s)", prefix, k.Handler, r.newer, r.newer, r.differs)
		k.Handler = r.newer
		return
	}
	if why, ok := olderRefused()[k.Handler]; ok {
		tc.d.SoftErrorf(at("handler"), "%shandler %q (of an earlier contenox format) is not supported: %s", prefix, k.Handler, why)
		k.Handler = HandlerNoop
	}
}

// olderTaskFields reads a task's keys of earlier formats: valid_conditions
// on a task of another handler than prompt_to_condition, which contenox
// ignored, is said not to be applied; a task's compose, which merged
// with_var into the output, is refused.
func (tc *taskChain) olderTaskFields(k *taskKeys, at func(string) yamlpos.Pos, prefix string) {
	if k.ValidConditions != nil && k.Handler != HandlerPromptCondition {
		tc.d.Warnf(at("valid_conditions"), "%svalid_conditions is not applied: it is read only by a prompt_to_condition (condition_key) task", prefix)
	}
	if k.Compose != nil {
		tc.d.Errorf(at("compose"), "%scompose on a task is an earlier contenox format's (it merged with_var into the task's output: override, merge_chat_histories, append_string_to_chat_history); chainrun has no equal: a branch's compose stores a JSONPath of the output in with_var, as reference 003 defines it", prefix)
	}
}

// dropAlert takes an alert key (contenox's on_failure_alert of a
// transition, alert_on_match of a branch) out of n, warning that it is
// not applied: contenox sent the text to its alert service, which has no
// equal; the run's events say the same (a failed task, a branch taken).
func (tc *taskChain) dropAlert(n *yaml.Node, key, prefix, when string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			continue
		}
		tc.d.Warnf(yamlpos.Of(n.Content[i]), "%s%s is not applied: contenox sent it to its alert service %s; chainrun has none (the run's events record it)", prefix, key, when)
		n.Content = append(n.Content[:i], n.Content[i+2:]...)
		return
	}
}

// dropAlerts takes a transition's alerts out before its branches are
// read.
func (tc *taskChain) dropAlerts(v *yaml.Node, prefix string) {
	v = yamlpos.Deref(v)
	tc.dropAlert(v, "on_failure_alert", prefix+"transition: ", "when the task failed")
	if bs := yamlpos.ValueOf(v, "branches"); bs != nil {
		for _, b := range yamlpos.Deref(bs).Content {
			tc.dropAlert(yamlpos.Deref(b), "alert_on_match", prefix+"branch: ", "when the branch was taken")
		}
	}
}

// routingStrategies are the values contenox's routing_strategy took.
var routingStrategies = []string{"random", "auto", "low-latency"}

// routingStrategy reads a chain's routing_strategy: how contenox chose
// among the backends serving a model. chainrun calls the model named
// first and falls back in order, so it is not applied; a value contenox
// refused is refused.
func routingStrategy(d *yamlpos.Diags, root *yaml.Node) {
	v := yamlpos.ValueOf(root, "routing_strategy")
	if v == nil {
		return
	}
	if v.Value != "" && !containsFold(routingStrategies, v.Value) {
		d.Errorf(yamlpos.Of(v), "routing_strategy %q is not one contenox had (%s)", v.Value, strings.Join(routingStrategies, ", "))
		return
	}
	d.Warnf(yamlpos.Of(v), "routing_strategy is not applied: it chose among the backends serving a model in contenox; chainrun calls the model a task names first and falls back in order")
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// olderToolsOK is the result contenox gave a hook or tools task that
// succeeded without an output_template, until c5f4c096 (2026-06-01)
// made it tools_executed.
const olderToolsOK = "ok"

// olderToolsResult reads an equals branch on "ok" of a tools task
// (handler hook or tools) without output_template as the branch on
// tools_executed it meant, with a warning: the engine gives
// tools_executed, and the branch would never be taken.
func (tc *taskChain) olderToolsResult(s *chain.State, k *taskKeys, prefix string) {
	if k.Handler != HandlerTools || k.OutputTemplate != "" {
		return
	}
	for _, b := range s.Branches {
		if (b.Operator == chain.OpEquals || b.Operator == chain.OpNotEquals) && strings.TrimSpace(b.When) == olderToolsOK {
			tc.d.Warnf(b.Pos, "%swhen %q is the result contenox gave a hook or tools task that succeeded until 2026-06-01 (c5f4c096); the result is now %q: read as %q", prefix, b.When, ResultToolsExecuted, ResultToolsExecuted)
			b.When = ResultToolsExecuted
		}
	}
}

// warnConditionAnswers warns at a branch of a prompt_to_condition task
// that compares text and matches neither true nor false, the only
// results the task gives (an equals branch on one of valid_conditions'
// answers, yes say): it is never taken, in contenox as in chainrun.
func (tc *taskChain) warnConditionAnswers(s *chain.State, h *Handler, prefix string) {
	if h == nil || h.Name != HandlerPromptCondition {
		return
	}
	for _, b := range s.Branches {
		switch b.Operator {
		case chain.OpEquals, chain.OpNotEquals, chain.OpContains, chain.OpNotContains, chain.OpStartsWith, chain.OpEndsWith:
			if !b.Matches("true") && !b.Matches("false") {
				tc.d.Warnf(b.Pos, "%s%s %q: a prompt_to_condition task's result is the value of the answer valid_conditions maps it to, true or false: this branch is not taken", prefix, b.Operator, b.When)
			}
		}
	}
}
