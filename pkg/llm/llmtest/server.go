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
	"unicode/utf8"
)

// Reply is one scripted answer.
type Reply struct {
	// Text is the answer (status 200).
	Text string
	// Status, when not 0 or 200, answers with an API error of that status.
	Status int
	// RetryAfter is sent as the Retry-After header.
	RetryAfter string
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
	// Refusal, when set, makes the model refuse: OpenAI's message.refusal
	// (delta.refusal pieces in a stream) with a null content, Anthropic's
	// stop_reason "refusal" with this as stop_details.explanation, after
	// Text if any.
	Refusal string
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
}

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
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: map[string]any{}}
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
	case anthropic && stream:
		anthropicStream(w, model, reply, req)
	case anthropic:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"msg_1","type":"message","role":"assistant","model":%q,"content":%s,"stop_reason":%q%s,"usage":{"input_tokens":%d,"output_tokens":%d}}`,
			model, anthropicContent(reply), anthropicStop(reply), anthropicDetails(reply), inputTokens(req), outputTokens(reply))
	case stream:
		openaiStream(w, model, reply, req)
	default:
		finish := or(reply.Finish, "stop")
		if len(reply.ToolCalls) > 0 {
			finish = or(reply.Finish, "tool_calls")
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
			model, openaiMessage(reply), finish, inputTokens(req), outputTokens(reply), inputTokens(req)+outputTokens(reply))
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

// interrupt ends a stream early as the reply scripts: an error event
// (written by fail) or a cut. It reports whether the stream must stop.
func (r Reply) interrupt(fail func()) bool {
	if r.StreamError {
		fail()
		return true
	}
	return r.CutStream
}

func anthropicStream(w http.ResponseWriter, model string, reply Reply, req Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	fail := func() { ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`) }
	ev("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":%q,"content":[],"stop_reason":null,"usage":{"input_tokens":%d,"output_tokens":1}}}`, model, inputTokens(req)))
	index := 0
	if reply.Text != "" || len(reply.ToolCalls) == 0 {
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for _, piece := range pieces(reply.Text) {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}`, jsonString(piece)))
		}
		if len(reply.ToolCalls) == 0 && reply.interrupt(fail) {
			return
		}
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		index++
	}
	for i, c := range reply.ToolCalls {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`, index, jsonString(c.id("toolu_", i)), jsonString(c.Name)))
		for j, piece := range c.argPieces() {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, index, jsonString(piece)))
			if i == 0 && j == 0 && reply.interrupt(fail) {
				return
			}
		}
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index))
		index++
	}
	ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q%s},"usage":{"output_tokens":%d}}`, anthropicStop(reply), anthropicDetails(reply), outputTokens(reply)))
	ev("message_stop", `{"type":"message_stop"}`)
}

func openaiStream(w http.ResponseWriter, model string, reply Reply, req Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	data := func(s string) {
		fmt.Fprintf(w, "data: %s\n\n", s)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	fail := func() { data(`{"error":{"message":"The server had an error","type":"server_error"}}`) }
	first := true
	delta := func(fields string) {
		if first {
			fields, first = `"role":"assistant",`+fields, false
		}
		data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[{"index":0,"delta":{%s},"finish_reason":null}]}`, model, fields))
	}
	for _, piece := range pieces(reply.Text) {
		delta(`"content":` + jsonString(piece))
	}
	for _, piece := range pieces(reply.Refusal) {
		delta(`"content":null,"refusal":` + jsonString(piece))
	}
	if len(reply.ToolCalls) == 0 && reply.interrupt(fail) {
		return
	}
	for i, c := range reply.ToolCalls {
		delta(fmt.Sprintf(`"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":""}}]`, i, jsonString(c.id("call_", i)), jsonString(c.Name)))
		for j, piece := range c.argPieces() {
			delta(fmt.Sprintf(`"tool_calls":[{"index":%d,"function":{"arguments":%s}}]`, i, jsonString(piece)))
			if i == 0 && j == 0 && reply.interrupt(fail) {
				return
			}
		}
	}
	finish := or(reply.Finish, "stop")
	if len(reply.ToolCalls) > 0 {
		finish = or(reply.Finish, "tool_calls")
	}
	data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[{"index":0,"delta":{},"finish_reason":%q}]}`, model, finish))
	data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, model, inputTokens(req), outputTokens(reply), inputTokens(req)+outputTokens(reply)))
	data("[DONE]")
}

// pieces splits text into a few stream deltas, never inside a UTF-8
// character.
func pieces(text string) []string {
	var out []string
	for len(text) > 4 {
		n := 4
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	if text != "" {
		out = append(out, text)
	}
	return out
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
