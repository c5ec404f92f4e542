package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// OpenAI speaks the Chat Completions API (not the Responses API) through
// the official SDK, so every OpenAI-compatible server works.
type OpenAI struct {
	name string
	chat openai.ChatService
}

// DefaultOpenAIBaseURL is where the openai provider goes when no base URL
// is set.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1/"

var _ Provider = (*OpenAI)(nil)

// NewOpenAI builds an adapter. baseURL follows the SDK's convention (it
// ends in /v1); empty means the SDK's default. apiKey may be empty for
// servers that need none (Ollama). The SDK's own retries are off.
func NewOpenAI(name, baseURL, apiKey string, hc *http.Client) *OpenAI {
	if apiKey == "" {
		apiKey = "none" // the SDK insists on one; keyless servers ignore it
	}
	if baseURL == "" {
		baseURL = DefaultOpenAIBaseURL
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	// The chat service is built from these options alone: the SDK's client
	// constructor would add OPENAI_* settings from the environment
	// (organization, project, custom headers) to every endpoint, Ollama
	// and vLLM included.
	opts := []option.RequestOption{option.WithBaseURL(baseURL), option.WithAPIKey(apiKey), option.WithMaxRetries(0), option.WithHTTPClient(hc)}
	return &OpenAI{name: name, chat: openai.NewChatService(opts...)}
}

// Name implements Provider.
func (o *OpenAI) Name() string { return o.name }

// Complete implements Provider.
func (o *OpenAI) Complete(ctx context.Context, req Request) (*Response, error) {
	params := openai.ChatCompletionNewParams{Model: req.Model}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		if m.Role == Assistant {
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Content))
		} else {
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		// OpenAI itself wants max_completion_tokens (its o-series refuses
		// max_tokens); compatible servers know max_tokens.
		if o.name == "openai" {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.OnDelta != nil {
		return o.stream(ctx, params, req.OnDelta)
	}
	resp, err := o.chat.Completions.New(ctx, params)
	if err != nil {
		return nil, o.classify(err)
	}
	if len(resp.Choices) == 0 {
		return nil, &Error{Provider: o.name, Transient: true, Message: "malformed response: no choices"}
	}
	c := resp.Choices[0]
	return &Response{
		Text:         c.Message.Content,
		FinishReason: openaiFinish(c.FinishReason),
		Usage:        Usage{InputTokens: int(resp.Usage.PromptTokens), OutputTokens: int(resp.Usage.CompletionTokens)},
		Model:        resp.Model,
	}, nil
}

func (o *OpenAI) stream(ctx context.Context, params openai.ChatCompletionNewParams, onDelta func(string)) (*Response, error) {
	params.StreamOptions.IncludeUsage = openai.Bool(true)
	s := o.chat.Completions.NewStreaming(ctx, params)
	defer s.Close()
	acc := openai.ChatCompletionAccumulator{}
	for s.Next() {
		chunk := s.Current()
		acc.AddChunk(chunk)
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			onDelta(chunk.Choices[0].Delta.Content)
		}
	}
	if err := s.Err(); err != nil {
		return nil, streamFailure(o.classify(err))
	}
	if len(acc.Choices) == 0 || acc.Choices[0].FinishReason == "" {
		return nil, &Error{Provider: o.name, Transient: true, Message: "the stream ended before the answer was complete"}
	}
	c := acc.Choices[0]
	return &Response{
		Text:         c.Message.Content,
		FinishReason: openaiFinish(c.FinishReason),
		Usage:        Usage{InputTokens: int(acc.Usage.PromptTokens), OutputTokens: int(acc.Usage.CompletionTokens)},
		Model:        acc.Model,
	}, nil
}

func (o *OpenAI) classify(err error) error {
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	var ae *openai.Error
	if errors.As(err, &ae) {
		return classify(o.name, err, ae.StatusCode, ae.Response, apiMessage(ae.RawJSON()))
	}
	return classify(o.name, err, 0, nil, "")
}

func openaiFinish(reason string) string {
	switch reason {
	case "length":
		return FinishLength
	case "tool_calls", "function_call":
		return FinishToolCall
	}
	return FinishStop
}

// apiMessage pulls the human message out of an API error body of either
// wire format ({"error": {"message": ...}} or {"message": ...}).
func apiMessage(raw string) string {
	var body struct {
		Message string `json:"message"`
		Error   struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &body) != nil {
		return ""
	}
	if body.Error.Message != "" {
		return body.Error.Message
	}
	return body.Message
}
