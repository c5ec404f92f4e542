package llm

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"strings"
)

// OpenAI speaks the Chat Completions API (POST {base}/chat/completions,
// not the Responses API), JSON or SSE, so every OpenAI-compatible server
// works: vLLM, llama.cpp, LM Studio, Ollama, LiteLLM, and the
// OpenAI-compatible endpoints of Azure, Bedrock and Vertex.
type OpenAI struct {
	name string
	ep   *endpoint
	// azure sends to Azure OpenAI's deployment URLs: the model names the
	// deployment.
	azure bool
	// completionTokens sends max_completion_tokens, which OpenAI's own
	// API wants (its reasoning models refuse max_tokens): for the openai
	// provider and api.openai.com. Other compatible servers know
	// max_tokens.
	completionTokens bool
	// tokenParam, when set (config token_param), is the name every
	// request's answer cap goes under, whatever the model.
	tokenParam string
	// ollama embeds through Ollama's own /api/embed (embed.go).
	ollama bool
}

// DefaultOpenAIBaseURL is where the openai provider goes when no base URL
// is set.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// DefaultAzureAPIVersion is the Azure OpenAI api-version sent when config
// names none: the newest generally available one.
const DefaultAzureAPIVersion = "2024-10-21"

var _ Provider = (*OpenAI)(nil)

// NewOpenAI builds an adapter. baseURL ends in /v1 (OpenAI's convention,
// as OPENAI_BASE_URL); empty means the public API. apiKey may be empty
// for servers that need none (Ollama). Only what is passed here is sent:
// no OPENAI_* variable of the environment reaches an endpoint. hc may be
// nil.
func NewOpenAI(name, baseURL, apiKey string, hc *http.Client, opts ...Option) *OpenAI {
	if baseURL == "" {
		baseURL = DefaultOpenAIBaseURL
	}
	ep := newEndpoint(name, baseURL, hc, nil)
	if apiKey != "" {
		ep.header.Set("Authorization", "Bearer "+apiKey)
	}
	for _, o := range opts {
		o(ep)
	}
	return &OpenAI{name: name, ep: ep, completionTokens: name == "openai" || hostIs(ep.base, "api.openai.com")}
}

// NewAzureOpenAI builds an adapter for Azure OpenAI: baseURL is the
// resource's endpoint (https://NAME.openai.azure.com), the key goes in
// the api-key header, and a model name is a deployment's name, sent to
// /openai/deployments/NAME/chat/completions?api-version=apiVersion.
func NewAzureOpenAI(name, baseURL, apiKey, apiVersion string, hc *http.Client, opts ...Option) *OpenAI {
	if apiVersion == "" {
		apiVersion = DefaultAzureAPIVersion
	}
	ep := newEndpoint(name, baseURL, hc, nil)
	if apiKey != "" {
		ep.header.Set("Api-Key", apiKey)
	}
	ep.query = url.Values{"api-version": {apiVersion}}
	for _, o := range opts {
		o(ep)
	}
	return &OpenAI{name: name, ep: ep, azure: true, completionTokens: true}
}

// Name implements Provider.
func (o *OpenAI) Name() string { return o.name }

// The request body of Chat Completions.
type openaiRequest struct {
	Model               string          `json:"model"`
	Messages            []openaiMessage `json:"messages"`
	Temperature         *float64        `json:"temperature,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Tools               []openaiTool    `json:"tools,omitempty"`
	ToolChoice          any             `json:"tool_choice,omitempty"`
	Stream              bool            `json:"stream,omitempty"`
	StreamOptions       *openaiStreamOf `json:"stream_options,omitempty"`
	Seed                *int64          `json:"seed,omitempty"`
	TopP                *float64        `json:"top_p,omitempty"`
	Stop                []string        `json:"stop,omitempty"`
	PresencePenalty     *float64        `json:"presence_penalty,omitempty"`
	FrequencyPenalty    *float64        `json:"frequency_penalty,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`
	ResponseFormat      *openaiFormat   `json:"response_format,omitempty"`
	PromptCacheKey      string          `json:"prompt_cache_key,omitempty"`
}

// openaiFormat is response_format: json_schema, or json_object (JSON
// mode).
type openaiFormat struct {
	Type       string            `json:"type"`
	JSONSchema *openaiJSONSchema `json:"json_schema,omitempty"`
}

type openaiJSONSchema struct {
	Name   string         `json:"name"`
	Schema map[string]any `json:"schema"`
	Strict bool           `json:"strict,omitempty"`
}

type openaiStreamOf struct {
	IncludeUsage bool `json:"include_usage"`
}

type openaiMessage struct {
	Role string `json:"role"`
	// Content is left out of an assistant turn that only calls tools.
	Content    *string          `json:"content,omitempty"`
	ToolCalls  []openaiToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

type openaiToolCall struct {
	// Index orders the pieces of a call in a stream.
	Index    *int           `json:"index,omitempty"`
	ID       string         `json:"id,omitempty"`
	Type     string         `json:"type,omitempty"`
	Function openaiFunction `json:"function"`
}

type openaiFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type openaiTool struct {
	Type     string         `json:"type"`
	Function openaiToolSpec `json:"function"`
}

type openaiToolSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
}

// The answer of Chat Completions, whole; a stream's chunks have the same
// shape with delta in place of message.
type openaiResponse struct {
	Model   string         `json:"model"`
	Choices []openaiChoice `json:"choices"`
	Usage   *openaiUsage   `json:"usage"`
	// Error is set by servers that answer 200 with an error body, and in
	// a stream's error chunk.
	Error json.RawMessage `json:"error"`
}

type openaiChoice struct {
	Index        int          `json:"index"`
	Message      openaiAnswer `json:"message"`
	Delta        openaiAnswer `json:"delta"`
	FinishReason string       `json:"finish_reason"`
}

type openaiAnswer struct {
	Content   *string          `json:"content"`
	ToolCalls []openaiToolCall `json:"tool_calls"`
	// Refusal is the model's refusal message, when it refused: the
	// finish reason is then still "stop".
	Refusal *string `json:"refusal"`
}

// openaiUsage is Chat Completions' usage: prompt_tokens counts the
// cached ones too (prompt_tokens_details.cached_tokens).
type openaiUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// Complete implements Provider.
func (o *OpenAI) Complete(ctx context.Context, req Request) (*Response, error) {
	if err := checkTools(o.name, req); err != nil {
		return nil, err
	}
	if err := notTaken(o.name, KindOpenAI, req.Params); err != nil {
		return nil, err
	}
	pr := req.Params
	body := openaiRequest{Model: req.Model, Temperature: req.Temperature, Stream: req.OnDelta != nil,
		Seed: pr.Seed, TopP: pr.TopP, Stop: pr.Stop, PresencePenalty: pr.PresencePenalty, FrequencyPenalty: pr.FrequencyPenalty,
		ReasoningEffort: pr.ReasoningEffort, PromptCacheKey: req.PromptCacheKey}
	if f := req.Format; f != nil {
		body.ResponseFormat = &openaiFormat{Type: "json_object"}
		if f.Schema != nil {
			body.ResponseFormat = &openaiFormat{Type: "json_schema", JSONSchema: &openaiJSONSchema{Name: schemaName(f.Name), Schema: f.Schema, Strict: f.Strict}}
		}
	}
	if req.System != "" {
		body.Messages = append(body.Messages, openaiMessage{Role: "system", Content: &req.System})
	}
	body.Messages = append(body.Messages, openaiMessages(req.Messages)...)
	if o.TokenParam(req.Model) == TokenParamMaxCompletionTokens {
		body.MaxCompletionTokens = maxTokens(req.MaxTokens)
	} else {
		body.MaxTokens = maxTokens(req.MaxTokens)
	}
	if len(req.Tools) > 0 {
		body.Tools = openaiTools(req.Tools)
		body.ToolChoice = openaiChoiceOf(req.ToolChoice)
	}
	if body.Stream {
		body.StreamOptions = &openaiStreamOf{IncludeUsage: true}
	}
	path := "/chat/completions"
	if o.azure {
		path = "/openai/deployments/" + url.PathEscape(req.Model) + path
	}
	sent, err := withExtra(body, pr.Extra)
	if err != nil {
		return nil, err
	}
	resp, err := o.ep.post(ctx, path, sent)
	if err != nil {
		return nil, err
	}
	var answer openaiResponse
	if body.Stream && isEventStream(resp) {
		err = o.stream(resp, &answer, req.OnDelta)
	} else {
		err = o.ep.decode(resp, &answer)
	}
	if err != nil {
		return nil, err
	}
	if len(answer.Choices) == 0 {
		if len(answer.Error) > 0 && string(answer.Error) != "null" {
			return nil, streamError(o.name, []byte(`{"error":`+string(answer.Error)+`}`))
		}
		return nil, malformed(o.name, "no choices")
	}
	r, err := o.response(answer)
	if err == nil {
		err = unoffered(o.name, req, r)
	}
	return r, err
}

// response reads the first choice of an answer, whole or gathered.
func (o *OpenAI) response(answer openaiResponse) (*Response, error) {
	c := answer.Choices[0]
	finish := openaiFinish(c.FinishReason)
	var calls []ToolCall
	for _, tc := range c.Message.ToolCalls {
		if tc.ID == "" && tc.Function.Name == "" && tc.Function.Arguments == "" {
			continue // a gap left by a sparse index in a stream
		}
		call, err := toolCall(o.name, len(calls), tc.ID, tc.Function.Name, tc.Function.Arguments, finish)
		if err != nil {
			return nil, err
		}
		calls = append(calls, call)
	}
	r := &Response{ToolCalls: calls, FinishReason: toolFinish(finish, calls), Model: answer.Model}
	if c.Message.Content != nil {
		r.Text = *c.Message.Content
	}
	if answer.Usage != nil {
		r.Usage = Usage{InputTokens: answer.Usage.PromptTokens, OutputTokens: answer.Usage.CompletionTokens}
		if d := answer.Usage.PromptTokensDetails; d != nil {
			r.Usage.CacheReadTokens = d.CachedTokens
		}
		r.Usage = r.Usage.counted()
	}
	switch {
	case c.Message.Refusal != nil && *c.Message.Refusal != "":
		return refused(o.name, *c.Message.Refusal, r.Usage)
	case c.FinishReason == "content_filter":
		return filtered(o.name, r.Text, r.Usage)
	}
	return r, nil
}

// openaiMessages maps the conversation to Chat Completions messages: an
// assistant turn carries its tool_calls; a user turn's results become one
// "tool" message each, before its text (if any) as a user message. The
// format has no error flag, so a failed tool's content says so.
func openaiMessages(msgs []Message) []openaiMessage {
	out := make([]openaiMessage, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == Assistant:
			am := openaiMessage{Role: "assistant"}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				am.Content = &m.Content
			}
			for _, c := range m.ToolCalls {
				am.ToolCalls = append(am.ToolCalls, openaiToolCall{ID: c.ID, Type: "function", Function: openaiFunction{Name: c.Name, Arguments: orEmptyObject(c.Arguments)}})
			}
			out = append(out, am)
		default:
			for _, r := range m.ToolResults {
				content := r.Content
				if r.IsError {
					content = "Error: " + content
				}
				out = append(out, openaiMessage{Role: "tool", Content: &content, ToolCallID: r.CallID})
			}
			if m.Content != "" || len(m.ToolResults) == 0 {
				out = append(out, openaiMessage{Role: "user", Content: &m.Content})
			}
		}
	}
	return out
}

func openaiTools(tools []Tool) []openaiTool {
	out := make([]openaiTool, 0, len(tools))
	for _, t := range tools {
		spec := openaiToolSpec{Name: t.Name, Description: t.Description}
		if t.Schema != nil {
			spec.Parameters = maps.Clone(t.Schema)
			if _, ok := spec.Parameters["type"]; !ok {
				spec.Parameters["type"] = "object"
			}
		}
		out = append(out, openaiTool{Type: "function", Function: spec})
	}
	return out
}

func openaiChoiceOf(choice string) any {
	switch choice {
	case "":
		return "auto"
	case ToolChoiceRequired:
		return "required"
	}
	return map[string]any{"type": "function", "function": map[string]string{"name": choice}}
}

// openaiFinish normalises a finish_reason. One it does not know (a
// compatible server's own) is kept as it is: never taken for a complete
// answer, so never cached.
func openaiFinish(reason string) string {
	switch reason {
	case "length":
		return FinishLength
	case "tool_calls", "function_call":
		return FinishToolCall
	case "stop", "":
		return FinishStop
	}
	return reason
}

// hostIs reports whether base's host is host or one of its subdomains.
func hostIs(base, host string) bool {
	u, err := url.Parse(base)
	return err == nil && (u.Hostname() == host || strings.HasSuffix(u.Hostname(), "."+host))
}
