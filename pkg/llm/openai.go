package llm

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
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
	if err := checkTools(o.name, req); err != nil {
		return nil, err
	}
	params := openai.ChatCompletionNewParams{Model: req.Model}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	params.Messages = append(params.Messages, openaiMessages(req.Messages)...)
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
	if len(req.Tools) > 0 {
		params.Tools = openaiTools(req.Tools)
		params.ToolChoice = openaiToolChoice(req.ToolChoice)
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
	return o.response(resp.Choices[0], resp.Usage, resp.Model)
}

func (o *OpenAI) stream(ctx context.Context, params openai.ChatCompletionNewParams, onDelta func(string)) (*Response, error) {
	params.StreamOptions.IncludeUsage = openai.Bool(true)
	s := o.chat.Completions.NewStreaming(ctx, params)
	defer s.Close()
	// The accumulator joins tool-call deltas by their index.
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
	return o.response(acc.Choices[0], acc.Usage, acc.Model)
}

// response reads the first choice of an answer, whole or accumulated.
func (o *OpenAI) response(c openai.ChatCompletionChoice, usage openai.CompletionUsage, model string) (*Response, error) {
	finish := openaiFinish(c.FinishReason)
	var calls []ToolCall
	for _, tc := range c.Message.ToolCalls {
		if tc.ID == "" && tc.Function.Name == "" && tc.Function.Arguments == "" {
			continue // a gap the accumulator left for a sparse index
		}
		call, err := toolCall(o.name, len(calls), tc.ID, tc.Function.Name, tc.Function.Arguments, finish)
		if err != nil {
			return nil, err
		}
		calls = append(calls, call)
	}
	return &Response{
		Text:         c.Message.Content,
		ToolCalls:    calls,
		FinishReason: toolFinish(finish, calls),
		Usage:        Usage{InputTokens: int(usage.PromptTokens), OutputTokens: int(usage.CompletionTokens)},
		Model:        model,
	}, nil
}

// openaiMessages maps the conversation to Chat Completions messages: an
// assistant turn carries its tool_calls; a user turn's results become one
// "tool" message each, before its text (if any) as a user message. The
// format has no error flag, so a failed tool's content says so.
func openaiMessages(msgs []Message) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == Assistant && len(m.ToolCalls) > 0:
			am := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				am.Content.OfString = openai.String(m.Content)
			}
			for _, c := range m.ToolCalls {
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: orEmptyObject(c.Arguments)},
					},
				})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		case m.Role == Assistant:
			out = append(out, openai.AssistantMessage(m.Content))
		default:
			for _, r := range m.ToolResults {
				content := r.Content
				if r.IsError {
					content = "Error: " + content
				}
				out = append(out, openai.ToolMessage(content, r.CallID))
			}
			if m.Content != "" || len(m.ToolResults) == 0 {
				out = append(out, openai.UserMessage(m.Content))
			}
		}
	}
	return out
}

func openaiTools(tools []Tool) []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(tools))
	for _, t := range tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		if t.Schema != nil {
			schema := maps.Clone(t.Schema)
			if _, ok := schema["type"]; !ok {
				schema["type"] = "object"
			}
			fn.Parameters = shared.FunctionParameters(schema)
		}
		out = append(out, openai.ChatCompletionFunctionTool(fn))
	}
	return out
}

func openaiToolChoice(choice string) openai.ChatCompletionToolChoiceOptionUnionParam {
	switch choice {
	case "":
		return openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
	case ToolChoiceRequired:
		return openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}
	}
	return openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: choice})
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
