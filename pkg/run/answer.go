package run

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/llm"
)

// answerValue is the value an agent step stores from its model's answer:
// the completion tool's arguments as data, JSON with its fences removed
// for output_schema: json, the chosen keyword for condition_key, else the
// text. It is the same for a fresh answer and a cached one.
func answerValue(s *chain.Step, text string) (Value, error) {
	v := textValue(text)
	switch {
	case s.Completion != nil:
		var d any
		if json.Unmarshal([]byte(text), &d) == nil {
			v = dataValue(d)
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
	return guard.Error(guard.Check(rulesOf(s), v.Text))
}

// keyword makes the output of a condition_key step the keyword the model
// chose (reference 003). An answer that holds none is a failed attempt,
// retried like a guardrail violation.
func keyword(s *chain.Step, v Value) (Value, error) {
	if len(s.ConditionKey) == 0 {
		return v, nil
	}
	answer := strings.Trim(strings.TrimSpace(v.Text), ".!\"'`*")
	for _, k := range s.ConditionKey {
		if strings.EqualFold(answer, k) {
			return textValue(k), nil
		}
	}
	// a model that explains itself: take the one keyword it names
	var named []string
	for _, k := range s.ConditionKey {
		if containsWord(answer, k) {
			named = append(named, k)
		}
	}
	if len(named) == 1 {
		return textValue(named[0]), nil
	}
	if s.KeywordFallsThrough() {
		// a workflow task whose state has a default branch: the answer
		// is the result, and the default branch takes it
		return textValue(strings.TrimSpace(v.Text)), nil
	}
	return v, fmt.Errorf("the model answered %q, not one of the keywords %s", clip(v.Text, 60), strings.Join(s.ConditionKey, ", "))
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
func parseJSONAnswer(text string) (Value, bool) {
	t := guard.JSONText(text)
	var d any
	if json.Unmarshal([]byte(t), &d) != nil {
		return Value{}, false
	}
	return Value{Text: t, Data: d}, true
}

// answerCache is how a step's answers are cached: nil options when the
// step does not cache. The key names the question: the step, the fully
// resolved prompt and system prompt, the models, every parameter that
// changes the answer and every check the answer passed to be stored. A
// re-ask carries the broken answers and the feedback on them after the
// prompt; they are not part of the question, so the answer that passes
// after a re-ask is stored under the question's key. A request that
// holds a secret input is never cached (the cache is plain files on
// disk).
func (x *execution) answerCache(s *chain.Step, targets []llm.Target) (llm.Cache, llm.CacheOptions) {
	if s.Cache == nil || !s.Cache.Enabled || x.l.cache == nil {
		return nil, llm.CacheOptions{}
	}
	models := labels(targets)
	key := func(req llm.Request) string {
		if len(req.Messages) == 0 || x.holdsSecret(req) {
			return ""
		}
		k := answerKey{Step: s.ID, System: req.System, Prompt: req.Messages[0].Content, Models: models,
			MaxTokens: req.MaxTokens, OutputSchema: s.OutputSchema,
			Guardrails: s.Guardrails, MustContain: s.OutputMustContain, MustNotContain: s.OutputMustNotContain,
			MaxLength: s.OutputMaxLength, ConditionKey: s.ConditionKey}
		if req.Temperature != nil {
			k.Temperature, k.HasTemperature = *req.Temperature, true
		}
		if len(req.Tools) > 0 {
			// the tools offered (and the completion schema) shape the answer
			k.Tools = req.Tools
			if c := s.Completion; c != nil {
				k.Completion = []any{c.Tool, c.Description, c.Schema}
			}
		}
		// by value, with no pointer in it: a key that JSON cannot carry
		// is hashed as Go prints it, which must not hold an address
		return cache.Key(k)
	}
	return x.l.cache, llm.CacheOptions{Key: key, TTL: cacheTTL(s), Read: x.l.cacheReads}
}

// answerKey is everything that names a cached answer.
type answerKey struct {
	Step           string   `json:"s"`
	System         string   `json:"y,omitempty"`
	Prompt         string   `json:"p"`
	Models         []string `json:"m"`
	Temperature    float64  `json:"t,omitempty"`
	HasTemperature bool     `json:"h,omitempty"`
	MaxTokens      int      `json:"n,omitempty"`
	OutputSchema   string   `json:"o,omitempty"`
	// the checks the answer passed to be stored
	Guardrails     []chain.Guardrail `json:"g,omitempty"`
	MustContain    []string          `json:"c,omitempty"`
	MustNotContain []string          `json:"x,omitempty"`
	MaxLength      int               `json:"l,omitempty"`
	ConditionKey   []string          `json:"k,omitempty"`
	// the tools offered and the completion schema shape the answer
	Tools      []llm.Tool `json:"u,omitempty"`
	Completion []any      `json:"d,omitempty"`
}

func labels(targets []llm.Target) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = t.Label()
	}
	return out
}

// cacheTTL is the step's ttl_minutes, a day when it sets none.
func cacheTTL(s *chain.Step) time.Duration {
	if s.Cache != nil && s.Cache.TTLMinutes > 0 {
		return time.Duration(s.Cache.TTLMinutes) * time.Minute
	}
	return 24 * time.Hour
}

// feedback is what a retry after broken guardrails tells the model.
func feedback(answer string, err *guard.ViolationError) []llm.Message {
	var b strings.Builder
	b.WriteString("Your answer broke these rules:\n")
	for _, v := range err.Violations {
		b.WriteString("- " + v.Message + "\n")
	}
	b.WriteString("Answer again, following every rule.")
	return []llm.Message{{Role: llm.Assistant, Content: answer}, {Role: llm.User, Content: b.String()}}
}

// holdsSecret reports whether a model request carries a secret input in
// any form: such a request is never cached, nor its answer.
func (x *execution) holdsSecret(req llm.Request) bool {
	if x.secrets.holds(req.System) {
		return true
	}
	for _, m := range req.Messages {
		if x.secrets.holds(m.Content) {
			return true
		}
	}
	return false
}
