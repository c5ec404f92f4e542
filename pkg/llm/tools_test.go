package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// pickTool is the tool a step uses to choose a workflow transition: its
// one argument is an enum of the transition names.
var pickTool = llm.Tool{
	Name:        "pick",
	Description: "Choose the next step.",
	Schema: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"transition": map[string]any{"type": "string", "enum": []string{"review", "done"}},
		},
		"required":             []string{"transition"},
		"additionalProperties": false,
	},
}

var lookupTool = llm.Tool{Name: "lookup", Schema: map[string]any{"type": "object", "properties": map[string]any{}}}

// wire decodes the JSON a test expects on the wire, to compare with what
// the fake server recorded.
func wire(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expectation %s: %v", s, err)
	}
	return v
}

func toolRequest(stream bool, deltas *strings.Builder, choice string, msgs ...llm.Message) llm.Request {
	if len(msgs) == 0 {
		msgs = []llm.Message{{Role: llm.User, Content: "which way?"}}
	}
	r := llm.Request{Model: "m-1", Messages: msgs, Tools: []llm.Tool{pickTool, lookupTool}, ToolChoice: choice}
	if stream {
		r.OnDelta = func(s string) { deltas.WriteString(s) }
	}
	return r
}

func TestToolsReachTheServer(t *testing.T) {
	anthropicTools := `[
		{"name":"pick","description":"Choose the next step.","input_schema":{"type":"object","properties":{"transition":{"type":"string","enum":["review","done"]}},"required":["transition"],"additionalProperties":false}},
		{"name":"lookup","input_schema":{"type":"object","properties":{}}}]`
	openaiTools := `[
		{"type":"function","function":{"name":"pick","description":"Choose the next step.","parameters":{"type":"object","properties":{"transition":{"type":"string","enum":["review","done"]}},"required":["transition"],"additionalProperties":false}}},
		{"type":"function","function":{"name":"lookup","parameters":{"type":"object","properties":{}}}}]`
	tests := []struct {
		choice    string
		anthropic string
		openai    string
	}{
		{"", `{"type":"auto"}`, `"auto"`},
		{llm.ToolChoiceRequired, `{"type":"any"}`, `"required"`},
		{"pick", `{"type":"tool","name":"pick"}`, `{"type":"function","function":{"name":"pick"}}`},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		for _, tt := range tests {
			s := llmtest.New(llmtest.Reply{Text: "ok"})
			_, err := mk(s).Complete(context.Background(), toolRequest(stream, &strings.Builder{}, tt.choice))
			s.Close()
			if err != nil {
				t.Fatalf("choice %q: %v", tt.choice, err)
			}
			body := s.Requests()[0].Body
			tools, choice := openaiTools, tt.openai
			if strings.HasPrefix(t.Name(), "TestToolsReachTheServer/anthropic") {
				tools, choice = anthropicTools, tt.anthropic
			}
			if !reflect.DeepEqual(body["tools"], wire(t, tools)) {
				t.Errorf("choice %q: tools = %v", tt.choice, body["tools"])
			}
			if !reflect.DeepEqual(body["tool_choice"], wire(t, choice)) {
				t.Errorf("choice %q: tool_choice = %v, want %s", tt.choice, body["tool_choice"], choice)
			}
		}
	})
}

func TestNoToolsSendNoToolFields(t *testing.T) {
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		s := llmtest.New(llmtest.Reply{Text: "ok"})
		defer s.Close()
		if _, err := mk(s).Complete(context.Background(), request(stream, &strings.Builder{})); err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{"tools", "tool_choice"} {
			if v, ok := s.Requests()[0].Body[field]; ok {
				t.Errorf("%s = %v in a request without tools", field, v)
			}
		}
	})
}

func TestToolCallsComeBack(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		// want holds the IDs each provider's answer carries, as
		// "anthropic id|openai id" when they differ.
		want     []llm.ToolCall
		wantText string
	}{
		{
			name:  "one call with text",
			reply: llmtest.Reply{Text: "Let me choose.", ToolCalls: []llmtest.ToolCall{{ID: "id_7", Name: "pick", Arguments: `{"transition": "review", "note": "café ✓ \"quoted\""}`}}},
			want:  []llm.ToolCall{{ID: "id_7", Name: "pick", Arguments: `{"transition": "review", "note": "café ✓ \"quoted\""}`}},

			wantText: "Let me choose.",
		},
		{
			name:  "one call alone",
			reply: llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition":"done"}`}}},
			want:  []llm.ToolCall{{ID: "toolu_1|call_1", Name: "pick", Arguments: `{"transition":"done"}`}},
		},
		{
			name: "two parallel calls",
			reply: llmtest.Reply{ToolCalls: []llmtest.ToolCall{
				{Name: "lookup", Arguments: `{"key":"a long enough value to span many chunks"}`},
				{Name: "pick", Arguments: `{"transition":"review"}`},
			}},
			want: []llm.ToolCall{
				{ID: "toolu_1|call_1", Name: "lookup", Arguments: `{"key":"a long enough value to span many chunks"}`},
				{ID: "toolu_2|call_2", Name: "pick", Arguments: `{"transition":"review"}`},
			},
		},
		{
			name:  "a call without arguments",
			reply: llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "lookup"}}},
			want:  []llm.ToolCall{{ID: "toolu_1|call_1", Name: "lookup", Arguments: `{}`}},
		},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		anthropic := strings.HasPrefix(t.Name(), "TestToolCallsComeBack/anthropic")
		for _, tt := range tests {
			s := llmtest.New(tt.reply)
			var deltas strings.Builder
			resp, err := mk(s).Complete(context.Background(), toolRequest(stream, &deltas, ""))
			s.Close()
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			want := make([]llm.ToolCall, len(tt.want))
			for i, c := range tt.want {
				ids := strings.Split(c.ID, "|")
				c.ID = ids[len(ids)-1]
				if anthropic {
					c.ID = ids[0]
				}
				want[i] = c
			}
			if !reflect.DeepEqual(resp.ToolCalls, want) {
				t.Errorf("%s: tool calls\n got %q\nwant %q", tt.name, resp.ToolCalls, want)
			}
			if resp.FinishReason != llm.FinishToolCall || resp.Text != tt.wantText {
				t.Errorf("%s: finish %q, text %q", tt.name, resp.FinishReason, resp.Text)
			}
			if stream && deltas.String() != tt.wantText {
				t.Errorf("%s: streamed %q, want only the text", tt.name, deltas.String())
			}
			if resp.Usage.OutputTokens == 0 {
				t.Errorf("%s: usage %+v", tt.name, resp.Usage)
			}
		}
	})
}

func TestToolConversationIsSerialised(t *testing.T) {
	tests := []struct {
		name      string
		msgs      []llm.Message
		anthropic string
		openai    string
	}{
		{
			name: "text beside calls and results",
			msgs: []llm.Message{
				{Role: llm.User, Content: "which way?"},
				{Role: llm.Assistant, Content: "Checking.", ToolCalls: []llm.ToolCall{
					{ID: "a", Name: "pick", Arguments: `{"transition":"done"}`},
					{ID: "b", Name: "lookup", Arguments: ""},
				}},
				{Role: llm.User, Content: "and now?", ToolResults: []llm.ToolResult{
					{CallID: "a", Content: "moved"},
					{CallID: "b", Content: "no such key", IsError: true},
				}},
			},
			anthropic: `[
				{"role":"user","content":[{"type":"text","text":"which way?"}]},
				{"role":"assistant","content":[
					{"type":"text","text":"Checking."},
					{"type":"tool_use","id":"a","name":"pick","input":{"transition":"done"}},
					{"type":"tool_use","id":"b","name":"lookup","input":{}}]},
				{"role":"user","content":[
					{"type":"tool_result","tool_use_id":"a","content":[{"type":"text","text":"moved"}]},
					{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"no such key"}],"is_error":true},
					{"type":"text","text":"and now?"}]}]`,
			openai: `[
				{"role":"user","content":"which way?"},
				{"role":"assistant","content":"Checking.","tool_calls":[
					{"id":"a","type":"function","function":{"name":"pick","arguments":"{\"transition\":\"done\"}"}},
					{"id":"b","type":"function","function":{"name":"lookup","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"a","content":"moved"},
				{"role":"tool","tool_call_id":"b","content":"Error: no such key"},
				{"role":"user","content":"and now?"}]`,
		},
		{
			name: "calls and results alone",
			msgs: []llm.Message{
				{Role: llm.User, Content: "which way?"},
				{Role: llm.Assistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "pick", Arguments: `{"transition":"review"}`}}},
				{Role: llm.User, ToolResults: []llm.ToolResult{{CallID: "a", Content: ""}}},
			},
			anthropic: `[
				{"role":"user","content":[{"type":"text","text":"which way?"}]},
				{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"pick","input":{"transition":"review"}}]},
				{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]`,
			openai: `[
				{"role":"user","content":"which way?"},
				{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"pick","arguments":"{\"transition\":\"review\"}"}}]},
				{"role":"tool","tool_call_id":"a","content":""}]`,
		},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		anthropic := strings.HasPrefix(t.Name(), "TestToolConversationIsSerialised/anthropic")
		for _, tt := range tests {
			s := llmtest.New(llmtest.Reply{Text: "done"})
			_, err := mk(s).Complete(context.Background(), toolRequest(stream, &strings.Builder{}, "", tt.msgs...))
			s.Close()
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			want := tt.openai
			if anthropic {
				want = tt.anthropic
			}
			got := s.Requests()[0].Body["messages"]
			if !reflect.DeepEqual(got, wire(t, want)) {
				b, _ := json.Marshal(got)
				t.Errorf("%s: messages\n got %s\nwant %s", tt.name, b, want)
			}
		}
	})
}

func TestGarbledToolCallIsTransient(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
	}{
		{"arguments cut short", llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition": "rev`}}}},
		{"arguments not an object", llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `["review"]`}}}},
		{"second call garbled", llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "lookup", Arguments: `{}`}, {Name: "pick", Arguments: `{"transition":}`}}}},
		{"no name", llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Arguments: `{"transition":"done"}`}}}},
		{"stream cut inside a call", llmtest.Reply{CutStream: true, ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition":"done"}`}}}},
		{"error event inside a call", llmtest.Reply{StreamError: true, ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition":"done"}`}}}},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		for _, tt := range tests {
			if !stream && (tt.reply.CutStream || tt.reply.StreamError) {
				continue
			}
			s := llmtest.New(tt.reply)
			resp, err := mk(s).Complete(context.Background(), toolRequest(stream, &strings.Builder{}, ""))
			s.Close()
			var e *llm.Error
			if !errors.As(err, &e) || !e.Transient {
				t.Errorf("%s: got %+v, %v; want a transient *llm.Error", tt.name, resp, err)
			}
		}
	})
}

func TestGarbledToolCallIsRetried(t *testing.T) {
	for _, a := range adapters {
		s := llmtest.New(
			llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition"`}}},
			llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition":"done"}`}}},
		)
		resp, _, sent, err := llm.Call(context.Background(), []llm.Target{{Provider: a.make(s, "k"), Model: "m"}},
			toolRequest(false, nil, "pick"), llm.Policy{Attempts: 2}, nil)
		s.Close()
		if err != nil || sent != 2 || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Arguments != `{"transition":"done"}` {
			t.Errorf("%s: %+v sent=%d %v", a.name, resp, sent, err)
		}
	}
}

func TestBadToolRequestIsRefusedUnsent(t *testing.T) {
	garbled := []llm.Message{
		{Role: llm.User, Content: "which way?"},
		{Role: llm.Assistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "pick", Arguments: `{"transition":`}}},
		{Role: llm.User, ToolResults: []llm.ToolResult{{CallID: "a", Content: "ok"}}},
	}
	tests := []struct {
		name    string
		req     llm.Request
		message string
	}{
		{"choice of an unknown tool", toolRequest(false, nil, "jump"), `tool choice "jump" names none`},
		{"choice without tools", llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.User, Content: "hi"}}, ToolChoice: llm.ToolChoiceRequired}, "without any tools"},
		{"replayed call garbled", toolRequest(false, nil, "", garbled...), `message 2: the arguments of tool call "pick"`},
	}
	for _, a := range adapters {
		s := llmtest.New()
		for _, tt := range tests {
			_, err := a.make(s, "k").Complete(context.Background(), tt.req)
			var e *llm.Error
			if !errors.As(err, &e) || e.Transient || !e.NotSent || !strings.Contains(e.Message, tt.message) {
				t.Errorf("%s: %s gave %v, want a permanent error before sending", a.name, tt.name, err)
			}
		}
		if s.Count() != 0 {
			t.Errorf("%s: %d requests sent", a.name, s.Count())
		}
		s.Close()
	}
}

func TestToolFinishReasons(t *testing.T) {
	call := []llmtest.ToolCall{{Name: "pick", Arguments: `{"transition":"done"}`}}
	tests := []struct {
		name   string
		finish map[string]string // the provider's words, by adapter
		want   string
	}{
		// Older Ollama says "stop" beside tool calls.
		{"stop beside calls", map[string]string{"anthropic": "end_turn", "openai": "stop"}, llm.FinishToolCall},
		{"cut at max tokens", map[string]string{"anthropic": "max_tokens", "openai": "length"}, llm.FinishLength},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		provider := strings.Split(strings.TrimPrefix(t.Name(), "TestToolFinishReasons/"), "/")[0]
		for _, tt := range tests {
			s := llmtest.New(llmtest.Reply{ToolCalls: call, Finish: tt.finish[provider]})
			resp, err := mk(s).Complete(context.Background(), toolRequest(stream, &strings.Builder{}, ""))
			s.Close()
			if err != nil || resp.FinishReason != tt.want || len(resp.ToolCalls) != 1 {
				t.Errorf("%s: %+v %v", tt.name, resp, err)
			}
		}
	})
}

// An OpenAI-compatible server (older Ollama) may send calls without an id
// and finish with "stop": the call still comes back, with an id its result
// can name.
func TestToolCallWithoutIDFromCompatibleServer(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Raw: `{"id":"c1","object":"chat.completion","created":1,"model":"llama3.2","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"type":"function","function":{"name":"pick","arguments":"{\"transition\":\"done\"}"}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":5,"total_tokens":10}}`})
	defer s.Close()
	resp, err := llm.NewOpenAI("ollama", s.OpenAIURL(), "", nil).Complete(context.Background(), toolRequest(false, nil, ""))
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{{ID: "call_1", Name: "pick", Arguments: `{"transition":"done"}`}}
	if !reflect.DeepEqual(resp.ToolCalls, want) || resp.FinishReason != llm.FinishToolCall {
		t.Errorf("%+v", resp)
	}
}
