package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// Anthropic speaks the Messages API through the official SDK.
type Anthropic struct {
	name   string
	client anthropic.Client
}

var _ Provider = (*Anthropic)(nil)

// NewAnthropic builds an adapter. baseURL follows the SDK's convention
// (no /v1); empty means the SDK's default. The SDK's own retries are off:
// chainrun owns retry and fallback.
func NewAnthropic(name, baseURL, apiKey string, hc *http.Client) *Anthropic {
	// WithoutEnvironmentDefaults: only what is passed here is used, so an
	// ANTHROPIC_AUTH_TOKEN or base URL from the environment never reaches
	// another anthropic-type endpoint.
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithAPIKey(apiKey), option.WithMaxRetries(0)}
	if baseURL != "" {
		opts = append(opts, option.WithBaseURL(baseURL))
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	return &Anthropic{name: name, client: anthropic.NewClient(opts...)}
}

// Name implements Provider.
func (a *Anthropic) Name() string { return a.name }

// Complete implements Provider.
func (a *Anthropic) Complete(ctx context.Context, req Request) (*Response, error) {
	if err := checkTools(a.name, req); err != nil {
		return nil, err
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(maxTokens(req.MaxTokens)),
		Messages:  anthropicMessages(req.Messages),
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	if len(req.Tools) > 0 {
		params.Tools = anthropicTools(req.Tools)
		params.ToolChoice = anthropicToolChoice(req.ToolChoice)
	}
	var msg *anthropic.Message
	var streamed map[int64]string
	var err error
	if req.OnDelta != nil {
		msg, streamed, err = a.stream(ctx, params, req.OnDelta)
	} else {
		msg, err = a.client.Messages.New(ctx, params)
	}
	if err != nil {
		if req.OnDelta != nil {
			return nil, streamFailure(a.classify(err))
		}
		return nil, a.classify(err)
	}
	return a.response(msg, streamed)
}

// response reads an answer. streamed holds the tool inputs of a stream as
// they arrived, by block index: the SDK's accumulator silently replaces an
// input that is not valid JSON with {}, which would hide a garbled call.
func (a *Anthropic) response(msg *anthropic.Message, streamed map[int64]string) (*Response, error) {
	finish := anthropicFinish(string(msg.StopReason))
	var text strings.Builder
	var calls []ToolCall
	for i, block := range msg.Content {
		switch block.Type {
		case "text":
			text.WriteString(block.Text)
		case "tool_use":
			args, ok := streamed[int64(i)]
			if !ok {
				args = string(block.Input)
			}
			call, err := toolCall(a.name, len(calls), block.ID, block.Name, args, finish)
			if err != nil {
				return nil, err
			}
			calls = append(calls, call)
		}
	}
	return &Response{
		Text:         text.String(),
		ToolCalls:    calls,
		FinishReason: toolFinish(finish, calls),
		Usage:        Usage{InputTokens: int(msg.Usage.InputTokens), OutputTokens: int(msg.Usage.OutputTokens)},
		Model:        string(msg.Model),
	}, nil
}

func (a *Anthropic) stream(ctx context.Context, params anthropic.MessageNewParams, onDelta func(string)) (*anthropic.Message, map[int64]string, error) {
	s := a.client.Messages.NewStreaming(ctx, params)
	defer s.Close()
	msg := &anthropic.Message{}
	var inputs map[int64]string
	for s.Next() {
		ev := s.Current()
		if err := msg.Accumulate(ev); err != nil {
			return nil, nil, err
		}
		d, ok := ev.AsAny().(anthropic.ContentBlockDeltaEvent)
		switch {
		case !ok:
		case d.Delta.Type == "input_json_delta":
			if inputs == nil {
				inputs = map[int64]string{}
			}
			inputs[d.Index] += d.Delta.PartialJSON
		case d.Delta.Text != "":
			onDelta(d.Delta.Text)
		}
	}
	if err := s.Err(); err != nil {
		return nil, nil, err
	}
	if msg.StopReason == "" {
		return nil, nil, &Error{Provider: a.name, Transient: true, Message: "the stream ended before the answer was complete"}
	}
	return msg, inputs, nil
}

// anthropicMessages maps the conversation to Messages turns: an assistant
// turn's text, then its tool_use blocks; a user turn's tool_result blocks
// first, as the API requires, then its text. Empty text is left out of a
// turn that has tool blocks, as the API refuses empty text blocks.
func anthropicMessages(msgs []Message) []anthropic.MessageParam {
	out := make([]anthropic.MessageParam, 0, len(msgs))
	for _, m := range msgs {
		var blocks []anthropic.ContentBlockParamUnion
		if m.Role == Assistant {
			if m.Content != "" || len(m.ToolCalls) == 0 {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, json.RawMessage(orEmptyObject(c.Arguments)), c.Name))
			}
			out = append(out, anthropic.NewAssistantMessage(blocks...))
			continue
		}
		for _, r := range m.ToolResults {
			result := anthropic.ToolResultBlockParam{ToolUseID: r.CallID}
			if r.Content != "" {
				result.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: r.Content}}}
			}
			if r.IsError {
				result.IsError = anthropic.Bool(true)
			}
			blocks = append(blocks, anthropic.ContentBlockParamUnion{OfToolResult: &result})
		}
		if m.Content != "" || len(m.ToolResults) == 0 {
			blocks = append(blocks, anthropic.NewTextBlock(m.Content))
		}
		out = append(out, anthropic.NewUserMessage(blocks...))
	}
	return out
}

func anthropicTools(tools []Tool) []anthropic.ToolUnionParam {
	out := make([]anthropic.ToolUnionParam, 0, len(tools))
	for _, t := range tools {
		// The SDK's schema type knows only properties and required; every
		// other keyword ($defs, additionalProperties, ...) rides as an
		// extra field, and extras are written over the fields, so the
		// whole schema passes through as the caller wrote it. The type is
		// always "object".
		schema := anthropic.ToolInputSchemaParam{ExtraFields: map[string]any{}}
		for k, v := range t.Schema {
			if k != "type" {
				schema.ExtraFields[k] = v
			}
		}
		tool := anthropic.ToolUnionParamOfTool(schema, t.Name)
		if t.Description != "" {
			tool.OfTool.Description = anthropic.String(t.Description)
		}
		out = append(out, tool)
	}
	return out
}

func anthropicToolChoice(choice string) anthropic.ToolChoiceUnionParam {
	switch choice {
	case "":
		return anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{}}
	case ToolChoiceRequired:
		return anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
	}
	return anthropic.ToolChoiceParamOfTool(choice)
}

func (a *Anthropic) classify(err error) error {
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		e := classify(a.name, err, ae.StatusCode, ae.Response, apiMessage(ae.RawJSON()))
		// 529: Anthropic's "overloaded"
		return e
	}
	return classify(a.name, err, 0, nil, "")
}

func anthropicFinish(reason string) string {
	switch reason {
	case "max_tokens":
		return FinishLength
	case "tool_use":
		return FinishToolCall
	}
	return FinishStop
}

func maxTokens(n int) int {
	if n > 0 {
		return n
	}
	return DefaultMaxTokens
}
