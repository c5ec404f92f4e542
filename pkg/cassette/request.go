package cassette

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/chainrun/chainrun/pkg/llm"
)

// Request is what shapes a model's answer, as recorded: every field of a
// request except how it travels.
type Request struct {
	Provider    string    `yaml:"provider" json:"provider"`
	Model       string    `yaml:"model" json:"model"`
	System      string    `yaml:"system,omitempty" json:"system,omitempty"`
	Messages    []Message `yaml:"messages" json:"messages"`
	Tools       []Tool    `yaml:"tools,omitempty" json:"tools,omitempty"`
	ToolChoice  string    `yaml:"tool_choice,omitempty" json:"tool_choice,omitempty"`
	Temperature *float64  `yaml:"temperature,omitempty" json:"temperature,omitempty"`
	MaxTokens   int       `yaml:"max_tokens,omitempty" json:"max_tokens,omitempty"`
	// Purpose is "embedding" for a request of an embeddings endpoint
	// (its one message the text), empty for a chat request.
	Purpose string `yaml:"purpose,omitempty" json:"purpose,omitempty"`
}

// Message is one turn of a recorded conversation.
type Message struct {
	Role        string       `yaml:"role" json:"role"`
	Content     string       `yaml:"content,omitempty" json:"content,omitempty"`
	ToolCalls   []ToolCall   `yaml:"tool_calls,omitempty" json:"tool_calls,omitempty"`
	ToolResults []ToolResult `yaml:"tool_results,omitempty" json:"tool_results,omitempty"`
}

// ToolCall is a call a model made; Arguments is its JSON text, kept
// exactly.
type ToolCall struct {
	ID        string `yaml:"id,omitempty" json:"id,omitempty"`
	Name      string `yaml:"name" json:"name"`
	Arguments string `yaml:"arguments,omitempty" json:"arguments,omitempty"`
}

// ToolResult answers a ToolCall.
type ToolResult struct {
	CallID  string `yaml:"call_id" json:"call_id"`
	Content string `yaml:"content" json:"content"`
	IsError bool   `yaml:"is_error,omitempty" json:"is_error,omitempty"`
}

// Tool is a function offered to the model.
type Tool struct {
	Name        string         `yaml:"name" json:"name"`
	Description string         `yaml:"description,omitempty" json:"description,omitempty"`
	Schema      map[string]any `yaml:"schema,omitempty" json:"schema,omitempty"`
}

// Response is a recorded answer.
type Response struct {
	Text         string     `yaml:"text,omitempty"`
	ToolCalls    []ToolCall `yaml:"tool_calls,omitempty"`
	FinishReason string     `yaml:"finish_reason,omitempty"`
	Usage        Usage      `yaml:"usage"`
	// Model is the model that answered, as its provider reported it.
	Model string `yaml:"model,omitempty"`
	// Embedding is the vector an embeddings request got.
	Embedding []float64 `yaml:"embedding,omitempty,flow"`
}

// Usage is the tokens an answer cost.
type Usage struct {
	InputTokens  int `yaml:"input_tokens"`
	OutputTokens int `yaml:"output_tokens"`
}

// NewRequest is the recorded form of req sent to provider.
func NewRequest(provider string, req llm.Request) Request {
	r := Request{Provider: provider, Model: req.Model, System: req.System, ToolChoice: req.ToolChoice,
		Temperature: req.Temperature, MaxTokens: req.MaxTokens}
	if r.MaxTokens == 0 {
		r.MaxTokens = llm.DefaultMaxTokens
	}
	for _, m := range req.Messages {
		rm := Message{Role: string(m.Role), Content: m.Content, ToolCalls: toolCalls(m.ToolCalls)}
		for _, tr := range m.ToolResults {
			rm.ToolResults = append(rm.ToolResults, ToolResult{CallID: tr.CallID, Content: tr.Content, IsError: tr.IsError})
		}
		r.Messages = append(r.Messages, rm)
	}
	for _, t := range req.Tools {
		r.Tools = append(r.Tools, Tool{Name: t.Name, Description: t.Description, Schema: t.Schema})
	}
	return r
}

func toolCalls(calls []llm.ToolCall) []ToolCall {
	var out []ToolCall
	for _, c := range calls {
		out = append(out, ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return out
}

// Key is the request's identity: a hash of its canonical JSON (object
// keys sorted), the same on every platform and chainrun version that
// writes this format.
func (r Request) Key() string {
	b, err := json.Marshal(r)
	if err != nil {
		// a tool schema JSON cannot hold; it still has an identity
		b = []byte(err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// NewResponse is the recorded form of an answer.
func NewResponse(resp *llm.Response) Response {
	return Response{Text: resp.Text, ToolCalls: toolCalls(resp.ToolCalls), FinishReason: resp.FinishReason,
		Usage: Usage{resp.Usage.InputTokens, resp.Usage.OutputTokens}, Model: resp.Model}
}

// Answer is the recorded answer as a provider returns it.
func (r Response) Answer() *llm.Response {
	resp := &llm.Response{Text: r.Text, FinishReason: r.FinishReason, Model: r.Model,
		Usage: llm.Usage{InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens}}
	for _, c := range r.ToolCalls {
		resp.ToolCalls = append(resp.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	if resp.FinishReason == "" {
		resp.FinishReason = llm.FinishStop
		if len(resp.ToolCalls) > 0 {
			resp.FinishReason = llm.FinishToolCall
		}
	}
	return resp
}
