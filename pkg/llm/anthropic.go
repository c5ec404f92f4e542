package llm

import (
	"context"
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
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(maxTokens(req.MaxTokens)),
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	for _, m := range req.Messages {
		block := anthropic.NewTextBlock(m.Content)
		if m.Role == Assistant {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(block))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(block))
		}
	}
	var msg *anthropic.Message
	var err error
	if req.OnDelta != nil {
		msg, err = a.stream(ctx, params, req.OnDelta)
	} else {
		msg, err = a.client.Messages.New(ctx, params)
	}
	if err != nil {
		if req.OnDelta != nil {
			return nil, streamFailure(a.classify(err))
		}
		return nil, a.classify(err)
	}
	var text strings.Builder
	for _, block := range msg.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	return &Response{
		Text:         text.String(),
		FinishReason: anthropicFinish(string(msg.StopReason)),
		Usage:        Usage{InputTokens: int(msg.Usage.InputTokens), OutputTokens: int(msg.Usage.OutputTokens)},
		Model:        string(msg.Model),
	}, nil
}

func (a *Anthropic) stream(ctx context.Context, params anthropic.MessageNewParams, onDelta func(string)) (*anthropic.Message, error) {
	s := a.client.Messages.NewStreaming(ctx, params)
	defer s.Close()
	msg := &anthropic.Message{}
	for s.Next() {
		ev := s.Current()
		if err := msg.Accumulate(ev); err != nil {
			return nil, err
		}
		if d, ok := ev.AsAny().(anthropic.ContentBlockDeltaEvent); ok && d.Delta.Text != "" {
			onDelta(d.Delta.Text)
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	if msg.StopReason == "" {
		return nil, &Error{Provider: a.name, Transient: true, Message: "the stream ended before the answer was complete"}
	}
	return msg, nil
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
