package llm

import "strings"

// The names an OpenAI-type endpoint takes the answer's cap under.
const (
	TokenParamMaxTokens           = "max_tokens"
	TokenParamMaxCompletionTokens = "max_completion_tokens"
)

// WithTokenParam makes every request send the answer's cap under name
// (config token_param); "" keeps the choice by provider and model.
func (o *OpenAI) WithTokenParam(name string) *OpenAI {
	o.tokenParam = name
	return o
}

// TokenParam is the name a request for model sends its answer's cap
// under: the provider's token_param when config sets one; else
// max_completion_tokens for OpenAI's own API and Azure (every model takes
// it) and for the reasoning families (o1, o3, o4, gpt-5), which refuse
// max_tokens behind any gateway; else max_tokens, which every other
// compatible server knows.
func (o *OpenAI) TokenParam(model string) string {
	switch {
	case o.tokenParam != "":
		return o.tokenParam
	case o.completionTokens || reasoningFamily(model):
		return TokenParamMaxCompletionTokens
	}
	return TokenParamMaxTokens
}

// reasoningFamily reports an OpenAI reasoning model, by its name as a
// gateway may write it (openai/o3-mini, gpt-5-mini-2025-08-07).
func reasoningFamily(model string) bool {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	for _, f := range []string{"o1", "o3", "o4", "gpt-5"} {
		if m == f || strings.HasPrefix(m, f+"-") || strings.HasPrefix(m, f+".") {
			return true
		}
	}
	return false
}
