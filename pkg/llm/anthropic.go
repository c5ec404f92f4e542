package llm

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// Anthropic speaks the Messages API (POST /v1/messages), JSON or SSE.
type Anthropic struct {
	name string
	ep   *endpoint
}

var _ Provider = (*Anthropic)(nil)

// DefaultAnthropicBaseURL is where the anthropic provider goes when no
// base URL is set.
const DefaultAnthropicBaseURL = "https://api.anthropic.com"

// anthropicVersion is the API version every request names.
const anthropicVersion = "2023-06-01"

// NewAnthropic builds an adapter. baseURL has no /v1 (Anthropic's own
// convention, as ANTHROPIC_BASE_URL); empty means the public API. Only
// what is passed here is sent: no variable of the environment reaches an
// endpoint. hc may be nil.
func NewAnthropic(name, baseURL, apiKey string, hc *http.Client, opts ...Option) *Anthropic {
	if baseURL == "" {
		baseURL = DefaultAnthropicBaseURL
	}
	ep := newEndpoint(name, baseURL, hc, nil)
	ep.header.Set("Anthropic-Version", anthropicVersion)
	if apiKey != "" {
		ep.header.Set("X-Api-Key", apiKey)
	}
	for _, o := range opts {
		o(ep)
	}
	return &Anthropic{name: name, ep: ep}
}

// Name implements Provider.
func (a *Anthropic) Name() string { return a.name }

// The request body of the Messages API.
type anthropicRequest struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	// System is the system prompt as text, or as text blocks when it
	// carries a cache breakpoint.
	System        any                  `json:"system,omitempty"`
	Messages      []anthropicMessage   `json:"messages"`
	Temperature   *float64             `json:"temperature,omitempty"`
	TopP          *float64             `json:"top_p,omitempty"`
	StopSequences []string             `json:"stop_sequences,omitempty"`
	Tools         []anthropicTool      `json:"tools,omitempty"`
	ToolChoice    *anthropicToolChoice `json:"tool_choice,omitempty"`
	Stream        bool                 `json:"stream,omitempty"`
	// OutputConfig constrains the answer to a JSON Schema, for models
	// that take it (nativeJSON).
	OutputConfig *anthropicOutputConfig `json:"output_config,omitempty"`
}

// ephemeral is a prompt-cache breakpoint (cache_control): the prefix up to
// the block that carries it is cached for five minutes.
var ephemeral = map[string]string{"type": "ephemeral"}

type anthropicMessage struct {
	Role    Role  `json:"role"`
	Content []any `json:"content"`
}

type anthropicText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type anthropicToolUse struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type anthropicToolResult struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   []anthropicText `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type anthropicTool struct {
	Name         string            `json:"name"`
	Description  string            `json:"description,omitempty"`
	InputSchema  map[string]any    `json:"input_schema"`
	CacheControl map[string]string `json:"cache_control,omitempty"`
}

type anthropicToolChoice struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
}

// The answer of the Messages API, whole.
type anthropicResponse struct {
	Model      string           `json:"model"`
	StopReason string           `json:"stop_reason"`
	Content    []anthropicBlock `json:"content"`
	Usage      anthropicUsage   `json:"usage"`
	// StopDetails says more of a refusal: its category and explanation.
	StopDetails *anthropicStopDetails `json:"stop_details"`
}

type anthropicStopDetails struct {
	Category    string `json:"category"`
	Explanation string `json:"explanation"`
}

type anthropicBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// anthropicUsage is the Messages API's usage: input_tokens leaves out
// what was written to or read from the prompt cache.
type anthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// usage is u in chainrun's terms: every input token counted once.
func (u anthropicUsage) usage() Usage {
	in, read, write := max(u.InputTokens, 0), max(u.CacheReadInputTokens, 0), max(u.CacheCreationInputTokens, 0)
	return Usage{InputTokens: in + write + read, OutputTokens: u.OutputTokens,
		CacheReadTokens: read, CacheWriteTokens: write}.counted()
}

// Complete implements Provider.
func (a *Anthropic) Complete(ctx context.Context, req Request) (*Response, error) {
	if err := checkTools(a.name, req); err != nil {
		return nil, err
	}
	if err := notTaken(a.name, KindAnthropic, req.Params); err != nil {
		return nil, err
	}
	body := anthropicRequest{
		Model:         req.Model,
		MaxTokens:     maxTokens(req.MaxTokens),
		Messages:      anthropicMessages(req.Messages),
		Temperature:   req.Temperature,
		TopP:          req.Params.TopP,
		StopSequences: req.Params.Stop,
		Stream:        req.OnDelta != nil,
	}
	if req.System != "" {
		body.System = req.System
	}
	if len(req.Tools) > 0 {
		body.Tools = anthropicTools(req.Tools)
		body.ToolChoice = anthropicChoice(req.ToolChoice)
	}
	formatTool := ""
	if f := req.Format; f != nil && f.Schema != nil && nativeJSON(req.Model) && constrainable(f.Schema) {
		// the model's own structured output: its text is the answer
		body.OutputConfig = &anthropicOutputConfig{Format: anthropicJSONFormat{Type: "json_schema", Schema: f.Schema}}
	} else if f != nil && f.Schema != nil && len(req.Tools) == 0 {
		// structured output as the Messages API offers it to every
		// model: one tool whose input is the answer, and that must be
		// called
		formatTool = schemaName(f.Name)
		body.Tools = anthropicTools([]Tool{{Name: formatTool, Description: "Give the answer: its input is the whole answer.", Schema: f.Schema}})
		body.ToolChoice = &anthropicToolChoice{Type: "tool", Name: formatTool}
	}
	if req.PromptCache {
		markCache(&body)
	}
	sent, err := withExtra(body, req.Params.Extra)
	if err != nil {
		return nil, err
	}
	resp, err := a.ep.post(ctx, "/v1/messages", sent)
	if err != nil {
		return nil, err
	}
	var msg anthropicResponse
	if req.OnDelta != nil && isEventStream(resp) {
		err = a.stream(resp, &msg, req.OnDelta)
	} else {
		err = a.ep.decode(resp, &msg)
	}
	if err != nil {
		return nil, err
	}
	r, err := a.response(&msg)
	if err == nil && formatTool != "" {
		asAnswer(r, formatTool)
	}
	if err == nil {
		err = unoffered(a.name, req, r)
	}
	return r, err
}

// response reads an answer, whole or gathered from a stream.
func (a *Anthropic) response(msg *anthropicResponse) (*Response, error) {
	finish := anthropicFinish(msg.StopReason)
	var text strings.Builder
	var calls []ToolCall
	for _, block := range msg.Content {
		switch block.Type {
		case "text":
			text.WriteString(block.Text)
		case "tool_use":
			call, err := toolCall(a.name, len(calls), block.ID, block.Name, string(block.Input), finish)
			if err != nil {
				return nil, err
			}
			calls = append(calls, call)
		}
	}
	usage := msg.Usage.usage()
	if msg.StopReason == "refusal" {
		return refused(a.name, anthropicRefusal(text.String(), msg.StopDetails), usage)
	}
	return &Response{
		Text:         text.String(),
		ToolCalls:    calls,
		FinishReason: toolFinish(finish, calls),
		Usage:        usage,
		Model:        msg.Model,
	}, nil
}

// anthropicRefusal is what a refusal says: the text the model gave before
// it stopped, then the explanation and category of stop_details.
func anthropicRefusal(text string, d *anthropicStopDetails) string {
	parts := []string{strings.TrimSpace(text)}
	if d != nil {
		parts = append(parts, strings.TrimSpace(d.Explanation))
		if d.Category != "" {
			parts = append(parts, "(category "+d.Category+")")
		}
	}
	parts = slices.DeleteFunc(parts, func(p string) bool { return p == "" })
	return strings.Join(parts, " ")
}

// anthropicMessages maps the conversation to Messages turns: an assistant
// turn's text, then its tool_use blocks; a user turn's tool_result blocks
// first, as the API requires, then its text. Empty text is left out of a
// turn that has tool blocks, as the API refuses empty text blocks.
func anthropicMessages(msgs []Message) []anthropicMessage {
	out := make([]anthropicMessage, 0, len(msgs))
	for _, m := range msgs {
		var blocks []any
		if m.Role == Assistant {
			if m.Content != "" || len(m.ToolCalls) == 0 {
				blocks = append(blocks, anthropicText{Type: "text", Text: m.Content})
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropicToolUse{Type: "tool_use", ID: c.ID, Name: c.Name, Input: json.RawMessage(orEmptyObject(c.Arguments))})
			}
			out = append(out, anthropicMessage{Role: Assistant, Content: blocks})
			continue
		}
		for _, r := range m.ToolResults {
			result := anthropicToolResult{Type: "tool_result", ToolUseID: r.CallID, IsError: r.IsError}
			if r.Content != "" {
				result.Content = []anthropicText{{Type: "text", Text: r.Content}}
			}
			blocks = append(blocks, result)
		}
		if m.Content != "" || len(m.ToolResults) == 0 {
			blocks = append(blocks, anthropicText{Type: "text", Text: m.Content})
		}
		out = append(out, anthropicMessage{Role: User, Content: blocks})
	}
	return out
}

// anthropicTools passes each schema through as the caller wrote it,
// every keyword kept; its type is always "object", as the API requires.
func anthropicTools(tools []Tool) []anthropicTool {
	out := make([]anthropicTool, 0, len(tools))
	for _, t := range tools {
		schema := maps.Clone(t.Schema)
		if schema == nil {
			schema = map[string]any{}
		}
		schema["type"] = "object"
		out = append(out, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out
}

func anthropicChoice(choice string) *anthropicToolChoice {
	switch choice {
	case "":
		return &anthropicToolChoice{Type: "auto"}
	case ToolChoiceRequired:
		return &anthropicToolChoice{Type: "any"}
	}
	return &anthropicToolChoice{Type: "tool", Name: choice}
}

// anthropicFinish normalises a stop_reason. One it does not know (a
// paused turn, a reason added later) is kept as it is: never taken for a
// complete answer, so never cached. None at all (null, "") is kept so
// too: the Messages API always sets one on an answer it finished, so an
// answer without is one that did not finish.
func anthropicFinish(reason string) string {
	switch reason {
	case "max_tokens", "model_context_window_exceeded":
		return FinishLength
	case "tool_use":
		return FinishToolCall
	case "end_turn", "stop_sequence":
		return FinishStop
	case "":
		return FinishUnknown
	}
	return reason
}

func maxTokens(n int) int {
	if n > 0 {
		return n
	}
	return DefaultMaxTokens
}
