package llm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Params are the request parameters a step or a model alias may set
// (params:), beyond model, messages, temperature and the answer's cap.
// Each is sent as its provider's API names it; a parameter a provider
// does not take is refused (Unsupported), never dropped.
type Params struct {
	Seed             *int64   `json:"seed,omitempty"`
	TopP             *float64 `json:"top_p,omitempty"`
	Stop             []string `json:"stop,omitempty"`
	PresencePenalty  *float64 `json:"presence_penalty,omitempty"`
	FrequencyPenalty *float64 `json:"frequency_penalty,omitempty"`
	// ReasoningEffort is OpenAI's reasoning_effort (minimal, low, medium,
	// high) for its reasoning models.
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// Extra is merged into the request body last: a provider's own
	// parameters, as its API names them.
	Extra map[string]any `json:"extra,omitempty"`
	// MaxOutputTokens is a model alias's cap on the answer, for requests
	// that set none of their own (a step's max_output_tokens is its
	// request's MaxTokens).
	MaxOutputTokens int `json:"max_output_tokens,omitempty"`
}

// IsZero reports whether p sets nothing.
func (p Params) IsZero() bool {
	return p.Seed == nil && p.TopP == nil && len(p.Stop) == 0 && p.PresencePenalty == nil && p.FrequencyPenalty == nil &&
		p.ReasoningEffort == "" && len(p.Extra) == 0 && p.MaxOutputTokens == 0
}

// Over is p with what it leaves unset taken from base: a step's params
// over its model alias's, an alias's over the alias it names. Extra is
// merged key by key, p's keys winning.
func (p Params) Over(base Params) Params {
	out := p
	if out.Seed == nil {
		out.Seed = base.Seed
	}
	if out.TopP == nil {
		out.TopP = base.TopP
	}
	if len(out.Stop) == 0 {
		out.Stop = base.Stop
	}
	if out.PresencePenalty == nil {
		out.PresencePenalty = base.PresencePenalty
	}
	if out.FrequencyPenalty == nil {
		out.FrequencyPenalty = base.FrequencyPenalty
	}
	if out.ReasoningEffort == "" {
		out.ReasoningEffort = base.ReasoningEffort
	}
	if out.MaxOutputTokens == 0 {
		out.MaxOutputTokens = base.MaxOutputTokens
	}
	if len(base.Extra) > 0 {
		out.Extra = maps.Clone(base.Extra)
		maps.Copy(out.Extra, p.Extra)
	}
	return out
}

// The kinds of provider API, as Unsupported takes them.
const (
	KindOpenAI    = "openai"
	KindAnthropic = "anthropic"
)

// paramsTaken are the parameters each API takes, by their params: name.
var paramsTaken = map[string][]string{
	KindOpenAI:    {"seed", "top_p", "stop", "presence_penalty", "frequency_penalty", "reasoning_effort", "extra"},
	KindAnthropic: {"top_p", "stop", "extra"},
}

// Unsupported names the parameters of p that an API of kind (KindOpenAI,
// KindAnthropic) does not take, in a stable order.
func (p Params) Unsupported(kind string) []string {
	var set []string
	if p.Seed != nil {
		set = append(set, "seed")
	}
	if p.TopP != nil {
		set = append(set, "top_p")
	}
	if len(p.Stop) > 0 {
		set = append(set, "stop")
	}
	if p.PresencePenalty != nil {
		set = append(set, "presence_penalty")
	}
	if p.FrequencyPenalty != nil {
		set = append(set, "frequency_penalty")
	}
	if p.ReasoningEffort != "" {
		set = append(set, "reasoning_effort")
	}
	return slices.DeleteFunc(set, func(name string) bool { return slices.Contains(paramsTaken[kind], name) })
}

// notTaken is the error of a request with parameters its provider does
// not take (validation refuses them first; this is the last guard).
func notTaken(provider, kind string, p Params) error {
	if bad := p.Unsupported(kind); len(bad) > 0 {
		return &Error{Provider: provider, Status: 0, NotSent: true, Message: fmt.Sprintf("%s does not take %v (params:)", provider, bad)}
	}
	return nil
}

// withExtra is body with extra merged in last, as JSON: a key of extra
// replaces the body's.
func withExtra(body any, extra map[string]any) (any, error) {
	if len(extra) == 0 {
		return body, nil
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	maps.Copy(m, extra)
	return m, nil
}

// ResponseFormat asks for an answer in JSON: one that satisfies Schema,
// or, with no Schema, any JSON object (JSON mode). The answer is still
// checked after it comes; a provider that honours the format makes a valid
// answer cost one request.
type ResponseFormat struct {
	// Name names the schema to the provider (letters, digits, _ and -).
	Name   string
	Schema map[string]any
	// Strict asks the provider to enforce the schema exactly; only
	// schemas that StrictAllowed accepts may be strict.
	Strict bool
}

// StrictAllowed reports whether schema can be sent strict, as OpenAI's
// structured outputs require: every object lists all its properties as
// required and sets additionalProperties: false, all the way down.
func StrictAllowed(schema map[string]any) bool {
	if schema == nil {
		return false
	}
	return strictNode(schema)
}

func strictNode(n map[string]any) bool {
	if props, ok := n["properties"].(map[string]any); ok || n["type"] == "object" {
		if n["additionalProperties"] != false {
			return false
		}
		req, _ := n["required"].([]any)
		for name, sub := range props {
			if !slices.Contains(req, any(name)) {
				return false
			}
			if m, ok := sub.(map[string]any); ok && !strictNode(m) {
				return false
			}
		}
	}
	if items, ok := n["items"].(map[string]any); ok && !strictNode(items) {
		return false
	}
	for _, k := range []string{"anyOf", "allOf", "oneOf"} {
		if list, ok := n[k].([]any); ok {
			for _, sub := range list {
				if m, ok := sub.(map[string]any); ok && !strictNode(m) {
					return false
				}
			}
		}
	}
	return true
}

// schemaName is a name a provider takes for a schema: letters, digits, _
// and -, at most 64; "answer" when none is left.
func schemaName(name string) string {
	out := make([]byte, 0, len(name))
	for i := 0; i < len(name) && len(out) < 64; i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return "answer"
	}
	return string(out)
}
