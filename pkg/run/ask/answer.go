package ask

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/llm"
)

// CacheKey names the question a step's request asks, for its answer
// cache: the step, the fully resolved prompt and system prompt, the models
// (labels), every parameter that changes the answer and every check the
// answer passed to be stored; "" for a request without a message. A
// re-ask's broken answers and feedback follow the prompt and are not part
// of the question.
func CacheKey(s *chain.Step, req llm.Request, models []string) string {
	if len(req.Messages) == 0 {
		return ""
	}
	k := answerKey{Step: s.ID, System: req.System, Prompt: req.Messages[0].Content, Models: models,
		MaxTokens: req.MaxTokens, OutputSchema: s.OutputSchema,
		Guardrails: s.Guardrails, MustContain: s.OutputMustContain, MustNotContain: s.OutputMustNotContain,
		MaxLength: s.OutputMaxLength, ConditionKey: s.Agent().ConditionKey}
	if req.Temperature != nil {
		k.Temperature, k.HasTemperature = *req.Temperature, true
	}
	// every parameter and the format asked for change the answer
	k.Format, k.CacheKey = req.Format, req.PromptCacheKey
	if !req.Params.IsZero() {
		k.Params = &req.Params // a step without params keeps the keys it had
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
	// the request's parameters and format (JSON, whose pointers are
	// written as their values)
	Params   *llm.Params         `json:"r,omitempty"`
	Format   *llm.ResponseFormat `json:"f,omitempty"`
	CacheKey string              `json:"q,omitempty"`
}

// Labels names targets for an answer cache's key: provider/model, as the
// llm.call events name them, and a model alias's params when it sets any.
func Labels(targets []llm.Target) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = t.Label()
		if !t.Params.IsZero() {
			// a model alias's params change its answers as a step's do
			if data, err := json.Marshal(t.Params); err == nil {
				out[i] += " " + string(data)
			}
		}
	}
	return out
}

// CacheTTL is how long a step's cached answers serve: its ttl_minutes, a
// day when it sets none.
func CacheTTL(s *chain.Step) time.Duration {
	if s.Agent().Cache != nil && s.Agent().Cache.TTLMinutes > 0 {
		return time.Duration(s.Agent().Cache.TTLMinutes) * time.Minute
	}
	return 24 * time.Hour
}

// Feedback is what a retry after broken guardrails tells the model: its
// answer, then the rules it broke.
func Feedback(answer string, err *guard.ViolationError) []llm.Message {
	var b strings.Builder
	b.WriteString("Your answer broke these rules:\n")
	for _, v := range err.Violations {
		b.WriteString("- " + v.Message + "\n")
	}
	b.WriteString("Answer again, following every rule.")
	return []llm.Message{{Role: llm.Assistant, Content: answer}, {Role: llm.User, Content: b.String()}}
}

// Policy is the retry of a model step's requests: its retry block, else
// two more attempts after a transient failure. Its Attempts is the most
// requests the step sends one model.
func Policy(s *chain.Step) llm.Policy {
	if s.OneRequest() {
		// OCC's default (reference 004: "default: 1 = no retry")
		p := llm.DefaultPolicy
		p.Attempts = 1
		return p
	}
	if s.Retry == nil {
		return llm.DefaultPolicy
	}
	p := llm.DefaultPolicy
	p.Attempts = max(s.Retry.Max, 1)
	p.Backoff = s.Retry.Backoff
	if s.Retry.DelayMS > 0 {
		p.Delay = time.Duration(s.Retry.DelayMS) * time.Millisecond
	}
	return p
}
