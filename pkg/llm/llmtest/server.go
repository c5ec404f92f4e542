// Package llmtest is a fake model server for tests: one httptest server
// that speaks both wire formats chainrun uses — Anthropic Messages
// (/v1/messages) and OpenAI Chat Completions (/v1/chat/completions) — as
// JSON or SSE streams, and answers from a script of replies: text, tool
// calls, errors with Retry-After, malformed bodies, stalls and cut streams.
// It imports nothing of this module.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	// Text is the answer (status 200).
	Text string
	// Status, when not 0 or 200, answers with an API error of that status.
	Status int
	// RetryAfter is sent as the Retry-After header.
	RetryAfter string
	// Header is sent with the answer (x-should-retry, ...).
	Header map[string]string
	// Raw replaces the whole body (a malformed answer).
	Raw string
	// Delay stalls before answering.
	Delay time.Duration
	// CutStream ends an SSE stream before the answer is complete.
	CutStream bool
	// StreamError sends an error event inside an SSE stream, after the
	// 200 that opened it (as an overloaded server does).
	StreamError bool
	// Finish is the stop reason in the provider's words (default: a
	// normal stop, or the tool-use reason when there are ToolCalls).
	Finish string
	// ToolCalls are tools the model calls, after Text (which may be
	// empty). A stream sends each call's arguments in pieces; CutStream
	// and StreamError then strike inside the first call.
	ToolCalls []ToolCall
	// Cache, when set, is the prompt-cache use the answer reports, as
	// the provider would have measured it (a test's model of the cache).
	Cache *CacheUse
	// Refusal, when set, makes the model refuse: OpenAI's message.refusal
	// (delta.refusal pieces in a stream) with a null content, Anthropic's
	// stop_reason "refusal" with this as stop_details.explanation, after
	// Text if any.
	Refusal string
	// Embeddings answer an embeddings request, one vector per input
	// (nil: LetterVector of each).
	Embeddings [][]float64
}

// CacheUse is a request's input in tokens and what of it was read from
// and written to the prompt cache: Anthropic's usage reports the rest as
// input_tokens beside cache_read_input_tokens and
// cache_creation_input_tokens, OpenAI's counts all of it in
// prompt_tokens with the read ones in prompt_tokens_details.
type CacheUse struct{ Input, Read, Write int }

// anthropicUsage is the usage members of an Anthropic answer.
func anthropicUsage(reply Reply, req Request, output int) string {
	if c := reply.Cache; c != nil {
		return fmt.Sprintf(`"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":%d`, c.Input-c.Read-c.Write, c.Read, c.Write, output)
	}
	return fmt.Sprintf(`"input_tokens":%d,"output_tokens":%d`, inputTokens(req), output)
}

// ToolCall is one scripted tool call.
type ToolCall struct {
	// ID is the call's id; empty makes one from its position
	// (toolu_1, toolu_2, ... or call_1, call_2, ...).
	ID   string
	Name string
	// Arguments is the JSON object sent, as text, byte for byte (empty
	// means {}). Invalid JSON is sent as it is: in Anthropic's JSON body,
	// where it is the input value, it garbles the whole body.
	Arguments string
}

// Request is what the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   map[string]any
	// bytes is the body as it came.
	bytes []byte
}

// Raw is the request's body as it came, for a test that counts what a
// decoded body cannot show (a key written twice, the order of keys).
func (r Request) Raw() string { return string(r.bytes) }

// Server is a scripted fake model server.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	script   []Reply
	fallback func(Request) Reply
	requests []Request
}

// New starts a server that answers with the replies in order; when they
// run out, it repeats the last one.
func New(replies ...Reply) *Server {
	s := &Server{script: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// NewFunc starts a server that computes each reply from the request.
func NewFunc(f func(Request) Reply) *Server {
	s := &Server{fallback: f}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// Requests returns what the server received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is the number of requests received.
func (s *Server) Count() int { return len(s.Requests()) }

// AnthropicURL is the base URL of the anthropic provider (no /v1).
func (s *Server) AnthropicURL() string { return s.URL }

// OpenAIURL is the base URL of the openai provider (ending in /v1).
func (s *Server) OpenAIURL() string { return s.URL + "/v1" }

func (s *Server) next(req Request) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	if s.fallback != nil {
		return s.fallback(req)
	}
	if len(s.script) == 0 {
		return Reply{Text: "ok"}
	}
	r := s.script[0]
	if len(s.script) > 1 {
		s.script = s.script[1:]
	}
	return r
}

// LastUserMessage is the text of the last user message of a request body
// of either wire format.
func (r Request) LastUserMessage() string {
	msgs, _ := r.Body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] != "user" {
			continue
		}
		switch c := m["content"].(type) {
		case string:
			return c
		case []any:
			var b strings.Builder
			for _, part := range c {
				if p, ok := part.(map[string]any); ok && p["type"] == "text" {
					fmt.Fprint(&b, p["text"])
				}
			}
			return b.String()
		}
	}
	return ""
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: map[string]any{}, bytes: data}
	_ = json.Unmarshal(data, &req.Body)
	reply := s.next(req)
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	anthropic := strings.HasSuffix(r.URL.Path, "/messages")
	model, _ := req.Body["model"].(string)
	stream, _ := req.Body["stream"].(bool)
	if reply.RetryAfter != "" {
		w.Header().Set("Retry-After", reply.RetryAfter)
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	switch {
	case reply.Raw != "":
		w.Header().Set("Content-Type", "application/json")
		if reply.Status != 0 {
			w.WriteHeader(reply.Status)
		}
		io.WriteString(w, reply.Raw)
	case reply.Status != 0 && reply.Status != 200:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.Status)
		msg := fmt.Sprintf("scripted error %d", reply.Status)
		if anthropic {
			fmt.Fprintf(w, `{"type":"error","error":{"type":"api_error","message":%q}}`, msg)
		} else {
			fmt.Fprintf(w, `{"error":{"message":%q,"type":"api_error","code":null}}`, msg)
		}
	case isEmbed(r.URL.Path):
		embedAnswer(w, r.URL.Path, model, reply, req)
	case anthropic && stream:
		anthropicStream(w, model, reply, req)
	case anthropic:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"msg_1","type":"message","role":"assistant","model":%q,"content":%s,"stop_reason":%q%s,"usage":{%s}}`,
			model, anthropicContent(reply), anthropicStop(reply), anthropicDetails(reply), anthropicUsage(reply, req, outputTokens(reply)))
	case stream:
		openaiStream(w, model, reply, req)
	default:
		finish := or(reply.Finish, "stop")
		if len(reply.ToolCalls) > 0 {
			finish = or(reply.Finish, "tool_calls")
		}
		w.Header().Set("Content-Type", "application/json")
		in, cached := inputTokens(req), 0
		if c := reply.Cache; c != nil {
			in, cached = c.Input, c.Read
		}
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}}`,
			model, openaiMessage(reply), finish, in, outputTokens(reply), in+outputTokens(reply), cached)
	}
}

// anthropicStop is the stop_reason of a reply.
func anthropicStop(reply Reply) string {
	switch {
	case reply.Refusal != "":
		return or(reply.Finish, "refusal")
	case len(reply.ToolCalls) > 0:
		return or(reply.Finish, "tool_use")
	}
	return or(reply.Finish, "end_turn")
}

// anthropicDetails is the stop_details member of a refusal (with its
// leading comma), else nothing.
func anthropicDetails(reply Reply) string {
	if reply.Refusal == "" {
		return ""
	}
	return fmt.Sprintf(`,"stop_details":{"type":"refusal","category":"cyber","explanation":%s}`, jsonString(reply.Refusal))
}

// anthropicContent is the content blocks of a whole answer: the text
// (left out when empty beside tool calls, as the API does), then a
// tool_use block per call.
func anthropicContent(reply Reply) string {
	var blocks []string
	if reply.Text != "" || len(reply.ToolCalls) == 0 && reply.Refusal == "" {
		blocks = append(blocks, fmt.Sprintf(`{"type":"text","text":%s}`, jsonString(reply.Text)))
	}
	for i, c := range reply.ToolCalls {
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":%s,"name":%s,"input":%s}`, jsonString(c.id("toolu_", i)), jsonString(c.Name), or(c.Arguments, "{}")))
	}
	return "[" + strings.Join(blocks, ",") + "]"
}

// openaiMessage is the message of a whole answer; its content is null
// beside tool calls when there is no text, as the API sends it.
func openaiMessage(reply Reply) string {
	if reply.Refusal != "" {
		return fmt.Sprintf(`{"role":"assistant","content":null,"refusal":%s,"annotations":[]}`, jsonString(reply.Refusal))
	}
	if len(reply.ToolCalls) == 0 {
		return fmt.Sprintf(`{"role":"assistant","content":%s}`, jsonString(reply.Text))
	}
	content := "null"
	if reply.Text != "" {
		content = jsonString(reply.Text)
	}
	calls := make([]string, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		calls[i] = fmt.Sprintf(`{"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}`, jsonString(c.id("call_", i)), jsonString(c.Name), jsonString(or(c.Arguments, "{}")))
	}
	return fmt.Sprintf(`{"role":"assistant","content":%s,"tool_calls":[%s]}`, content, strings.Join(calls, ","))
}

func (c ToolCall) id(prefix string, i int) string {
	return or(c.ID, prefix+strconv.Itoa(i+1))
}

// argPieces splits a call's arguments into stream deltas; no arguments
// are one empty delta, as Anthropic sends them.
func (c ToolCall) argPieces() []string {
	if c.Arguments == "" {
		return []string{""}
	}
	return pieces(c.Arguments)
}

// inputTokens and outputTokens are deterministic stand-ins for token
// counts: a tenth of the request's characters, a quarter of the answer's
// (text and arguments), at least one.
func inputTokens(r Request) int {
	b, _ := json.Marshal(r.Body["messages"])
	return max(1, len(b)/10)
}

func outputTokens(reply Reply) int {
	n := len(reply.Text)
	for _, c := range reply.ToolCalls {
		n += len(c.Arguments)
	}
	return max(1, n/4)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
