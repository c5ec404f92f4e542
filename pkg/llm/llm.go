package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Role is who speaks a message.
type Role string

// The roles of a conversation.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role    Role
	Content string
	// ToolCalls, on an assistant turn, are the calls the model made in it:
	// a conversation that goes on after tools ran must replay them, as
	// both APIs pair every result with the call it answers.
	ToolCalls []ToolCall
	// ToolResults, on a user turn, answer the ToolCalls of the assistant
	// turn before it. Content may then be empty.
	ToolResults []ToolResult
}

// Request is one model call.
type Request struct {
	// Model is the provider's own name for the model (no provider prefix).
	Model       string
	System      string
	Messages    []Message
	Temperature *float64
	// MaxTokens caps the answer; DefaultMaxTokens when zero.
	MaxTokens int
	// OnDelta, when set, makes the call stream and receives the text as
	// it arrives. The Response is the same either way.
	OnDelta func(text string)
	// Tools are the functions the model may call instead of, or besides,
	// answering in text.
	Tools []Tool
	// ToolChoice says whether the model must call a tool: "" lets it
	// decide, ToolChoiceRequired makes it call one of Tools, and any other
	// value is the name of the one tool it must call.
	ToolChoice string
	// CutIsAnswer makes an answer cut at MaxTokens (FinishLength) an
	// answer, for a caller that branches on the finish reason. Otherwise
	// such an answer is a failure (see cutOff): a part of an answer taken
	// for the whole would be passed on as if complete.
	CutIsAnswer bool
	// Params are the request's other parameters (params:).
	Params Params
	// Format, when set, asks for a JSON answer (structured outputs).
	Format *ResponseFormat
	// PromptCache marks what stays the same from one request to the next
	// for the provider's prompt cache: Anthropic's cache_control
	// breakpoints on the system prompt, the tools and the transcript.
	// PromptCacheKey is OpenAI's prompt_cache_key, which routes requests
	// that share a prefix to the same cache.
	PromptCache    bool
	PromptCacheKey string
}

// DefaultMaxTokens is the answer cap when a step sets none (the Messages
// API requires one).
const DefaultMaxTokens = 4096

// Finish reasons, normalised across providers (reference 003's result
// strings of a chat completion).
const (
	FinishStop     = "stop"
	FinishLength   = "length"
	FinishToolCall = "tool-call"
	// FinishUnknown is an answer that gave no finish reason where its
	// API always gives one when it finished: not taken for complete, so
	// never cached.
	FinishUnknown = "unknown"
)

// Response is a model's answer.
type Response struct {
	Text string
	// ToolCalls are the tools the model asked to run, in its order. When
	// there are any, FinishReason is FinishToolCall, unless the answer was
	// cut at MaxTokens (FinishLength: the last call may lack arguments).
	ToolCalls    []ToolCall
	FinishReason string
	Usage        Usage
	// Model is the model that answered, as the provider reports it.
	Model string
	// Via is provider/model of the target that answered, as configured
	// (set by WithRetry; a fallback answer names the fallback).
	Via string
	// Cached is an answer served from the answer cache: no request was
	// sent for it.
	Cached bool
}

// Usage counts tokens of one call. InputTokens are all the input tokens,
// those read from and written to the provider's prompt cache included
// (CacheReadTokens, CacheWriteTokens), so that budgets and totals mean the
// same for every provider; the cost prices each part at its own price.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// counted is u as a run counts it: a negative count (a broken server or
// gateway) is none, so that no answer credits a budget back or shows a
// run as having used fewer than no tokens, and the cache reads cannot
// exceed the tokens read.
func (u Usage) counted() Usage {
	u.InputTokens, u.OutputTokens = max(u.InputTokens, 0), max(u.OutputTokens, 0)
	u.CacheReadTokens = min(max(u.CacheReadTokens, 0), u.InputTokens)
	u.CacheWriteTokens = min(max(u.CacheWriteTokens, 0), u.InputTokens-u.CacheReadTokens)
	return u
}

// Provider is a model endpoint.
type Provider interface {
	// Name is the provider's name as model names use it (anthropic,
	// openai, ollama, or a name from config).
	Name() string
	// Complete makes one request, with no retry. Errors are *Error.
	Complete(ctx context.Context, req Request) (*Response, error)
}

// Error is a failed model call, classified so that retry and fallback
// decide alike for every provider.
type Error struct {
	Provider string
	// Status is the HTTP status, 0 when no response came.
	Status int
	// Transient errors (429, 5xx, overloaded, timeouts, resets, garbled
	// answers) may succeed when tried again; others fail the same on every
	// attempt and every model.
	Transient bool
	// RetryAfter is the server's requested wait, when it gave one.
	RetryAfter time.Duration
	Message    string
	Err        error
	// NotSent is true when the request never left this process (a spent
	// budget, a tool request refused before sending): it does not count
	// as a call.
	NotSent bool
	// Budget is true when the run's budget refused the request: the run
	// stops starting work, but the calls already in flight were admitted
	// within the budget and are let finish.
	Budget bool
	// NoRetry is the server saying the request will not succeed if sent
	// again (x-should-retry: false): it is not sent again to this model,
	// though a transient failure still moves on to the next fallback.
	NoRetry bool
	// Declined is set when the model answered but gave no answer:
	// FinishRefusal or FinishContentFilter (it declined the question), or
	// FinishLength (it was cut at MaxTokens). Such an answer is never
	// cached, not asked again of the same model (it would decline or be
	// cut again), and passed to the next fallback model, whose provider's
	// policy, or whose brevity, may differ.
	Declined string
}

func (e *Error) Error() string {
	msg := e.Provider + ": "
	if e.Status > 0 {
		msg += fmt.Sprintf("HTTP %d: ", e.Status)
	}
	return msg + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// IsTransient reports whether err may succeed when tried again.
func IsTransient(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Transient
}

// retryable reports whether err may succeed when sent again to the same
// model: transient, and the server did not say otherwise.
func retryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Transient && !e.NoRetry
}

// TransientStatus reports whether an HTTP status is worth retrying: rate
// limits, timeouts, overload and server errors.
func TransientStatus(status int) bool {
	switch {
	case status == 408, status == 409, status == 425, status == 429:
		return true
	case status >= 500:
		return true
	}
	return false
}
