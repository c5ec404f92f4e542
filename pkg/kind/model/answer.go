package model

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// answerValue is the value an agent step stores from its model's answer:
// the completion tool's arguments as data, JSON with its fences removed
// for output_schema: json, the chosen keyword for condition_key, else the
// text. It is the same for a fresh answer and a cached one.
func answerValue(s *chain.Step, text string) (interp.Value, error) {
	v := interp.TextValue(text)
	switch {
	case s.Agent().Completion != nil:
		var d any
		if json.Unmarshal([]byte(text), &d) == nil {
			v = interp.DataValue(d)
		}
	case s.OutputSchema == "json":
		if pv, ok := parseJSONAnswer(text); ok {
			v = pv
		}
	}
	return keyword(s, v)
}

// acceptAnswer is the one check of a model's answer: its value must hold
// a keyword when the step asks for one, and keep the step's guardrails.
// Only answers that pass it are cached.
func acceptAnswer(s *chain.Step, r *llm.Response) error {
	v, err := answerValue(s, r.Text)
	if err != nil {
		return err
	}
	return guard.Error(guard.Check(ask.Rules(s), v.Text))
}

// keyword makes the output of a condition_key step the keyword the model
// chose (reference 003). An answer that holds none is a failed attempt,
// retried like a guardrail violation.
func keyword(s *chain.Step, v interp.Value) (interp.Value, error) {
	if len(s.Agent().ConditionKey) == 0 {
		return v, nil
	}
	answer := strings.Trim(strings.TrimSpace(v.Text), ".!\"'`*")
	for _, k := range s.Agent().ConditionKey {
		if strings.EqualFold(answer, k) {
			return interp.TextValue(k), nil
		}
	}
	// a model that explains itself: take the one keyword it names
	var named []string
	for _, k := range s.Agent().ConditionKey {
		if containsWord(answer, k) {
			named = append(named, k)
		}
	}
	if len(named) == 1 {
		return interp.TextValue(named[0]), nil
	}
	if s.KeywordFallsThrough() {
		// a workflow task whose state has a default branch: the answer
		// is the result, and the default branch takes it
		return interp.TextValue(strings.TrimSpace(v.Text)), nil
	}
	return v, fmt.Errorf("the model answered %q, not one of the keywords %s", record.Clip(v.Text, 60), strings.Join(s.Agent().ConditionKey, ", "))
}

// containsWord reports whether w occurs in text as a whole word, ignoring
// case.
func containsWord(text, w string) bool {
	text, w = strings.ToLower(text), strings.ToLower(w)
	isWord := func(r byte) bool {
		return r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isWord(text[start-1])) && (end == len(text) || !isWord(text[end])) {
			return true
		}
		i = start + 1
	}
}

// parseJSONAnswer reads an answer that should be JSON, allowing the
// ```json fences models like to add.
func parseJSONAnswer(text string) (interp.Value, bool) {
	t := guard.JSONText(text)
	var d any
	if json.Unmarshal([]byte(t), &d) != nil {
		return interp.Value{}, false
	}
	return interp.Value{Text: t, Data: d}, true
}
