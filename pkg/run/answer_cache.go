package run

import (
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/llm"
)

// answerCache is how a step's answers are cached: nil options when the
// step does not cache. The key names the question: the step, the fully
// resolved prompt and system prompt, the models, every parameter that
// changes the answer and every check the answer passed to be stored. A
// re-ask carries the broken answers and the feedback on them after the
// prompt; they are not part of the question, so the answer that passes
// after a re-ask is stored under the question's key. A request that
// holds a secret input is never cached (the cache is plain files on
// disk).
func (x *Execution) answerCache(s *chain.Step, targets []llm.Target) (llm.Cache, llm.CacheOptions) {
	if s.Agent().Cache == nil || !s.Agent().Cache.Enabled || x.Engine.cache == nil {
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
			MaxLength: s.OutputMaxLength, ConditionKey: s.Agent().ConditionKey}
		if req.Temperature != nil {
			k.Temperature, k.HasTemperature = *req.Temperature, true
		}
		if len(req.Tools) > 0 {
			// the tools offered (and the completion schema) shape the answer
			k.Tools = req.Tools
			if c := s.Agent().Completion; c != nil {
				k.Completion = []any{c.Tool, c.Description, c.Schema}
			}
		}
		// by value, with no pointer in it: a key that JSON cannot carry
		// is hashed as Go prints it, which must not hold an address
		return cache.Key(k)
	}
	return x.Engine.cache, llm.CacheOptions{Key: key, TTL: cacheTTL(s), Read: x.Engine.cacheReads}
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

// labels names targets as the llm.call events do, provider/model.
func labels(targets []llm.Target) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = t.Label()
	}
	return out
}

// cacheTTL is the step's ttl_minutes, a day when it sets none.
func cacheTTL(s *chain.Step) time.Duration {
	if s.Agent().Cache != nil && s.Agent().Cache.TTLMinutes > 0 {
		return time.Duration(s.Agent().Cache.TTLMinutes) * time.Minute
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
func (x *Execution) holdsSecret(req llm.Request) bool {
	if x.Secrets.Holds(req.System) {
		return true
	}
	for _, m := range req.Messages {
		if x.Secrets.Holds(m.Content) {
			return true
		}
	}
	return false
}
