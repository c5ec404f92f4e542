package model

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
)

// withParams completes an agent step's request with what the step says
// of it beyond the prompt: its params (max_output_tokens as the answer's
// cap), the JSON answer it asks for (output_schema: json, or a
// json_schema guardrail's schema) and its prompt-cache settings.
func withParams(s *chain.Step, req *llm.Request) {
	ag := s.Agent()
	req.Params = ask.ParamsOf(ag.Params)
	if p := ag.Params; p != nil && p.MaxOutputTokens != nil {
		req.MaxTokens = *p.MaxOutputTokens
	}
	req.Format = FormatOf(s)
	if f := req.Format; f != nil && f.Schema == nil && !mentionsJSON(req) {
		// OpenAI refuses JSON mode unless the messages ask for JSON: the
		// check after the answer stays the guarantee
		req.Format = nil
	}
	req.PromptCacheKey = ag.PromptCacheKey
	req.PromptCache = ag.PromptCache != nil && *ag.PromptCache
}

// FormatOf is the JSON answer a step asks its provider for: the schema of
// its json_schema guardrail (strict when the schema allows it), else JSON
// mode for output_schema: json; nil for a text answer. The answer is
// still checked after it comes.
func FormatOf(s *chain.Step) *llm.ResponseFormat {
	for _, g := range s.Guardrails {
		if schema, ok := g.Value.(map[string]any); ok && g.Type == "json_schema" {
			return &llm.ResponseFormat{Name: s.ID, Schema: schema, Strict: llm.StrictAllowed(schema)}
		}
	}
	if s.OutputSchema == "json" {
		return &llm.ResponseFormat{}
	}
	return nil
}

// cacheTurn says whether a tool loop's turn marks the prompt cache: as
// the step says (prompt_cache), else from the third turn on, when the
// transcript it resends has grown worth caching.
func cacheTurn(s *chain.Step, turn int) bool {
	if pc := s.Agent().PromptCache; pc != nil {
		return *pc
	}
	return turn >= 3
}

// mentionsJSON reports whether the question (the system prompt or the
// prompt; not a re-ask's feedback, so that every attempt asks alike and
// keys the answer cache alike) says "JSON", which JSON mode requires.
func mentionsJSON(req *llm.Request) bool {
	q := req.System
	if len(req.Messages) > 0 {
		q += req.Messages[0].Content
	}
	return strings.Contains(strings.ToLower(q), "json")
}
