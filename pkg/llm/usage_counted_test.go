package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A negative token count from a broken server or gateway counts as none:
// no answer credits a budget back or shows fewer than no tokens used.
func TestNegativeUsageCountsAsNone(t *testing.T) {
	for _, tc := range []struct{ in, want Usage }{
		{Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 4, CacheWriteTokens: 3}, Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 4, CacheWriteTokens: 3}},
		{Usage{InputTokens: -1000000, OutputTokens: -5000000}, Usage{}},
		{Usage{InputTokens: 10, CacheReadTokens: -100000}, Usage{InputTokens: 10}},
		{Usage{InputTokens: 10, CacheReadTokens: 50}, Usage{InputTokens: 10, CacheReadTokens: 10}},
	} {
		if got := tc.in.counted(); got != tc.want {
			t.Errorf("%+v: %+v, want %+v", tc.in, got, tc.want)
		}
	}
	oa := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":-1000000,"completion_tokens":-5000000,"total_tokens":-6000000}}`)
	}))
	defer oa.Close()
	an := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":7,"cache_read_input_tokens":-100000}}`)
	}))
	defer an.Close()
	for _, tc := range []struct {
		p    Provider
		want Usage
	}{
		{NewOpenAI("openai", oa.URL, "k", oa.Client()), Usage{}},
		{NewAnthropic("anthropic", an.URL, "k", an.Client()), Usage{InputTokens: 5, OutputTokens: 7}},
	} {
		resp, err := tc.p.Complete(context.Background(), Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}, MaxTokens: 10})
		if err != nil || resp.Usage != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.p.Name(), resp, err, tc.want)
		}
	}
}

// An answer that asks for a tool when the request offered none is
// malformed, not an empty answer: nothing can run the tool.
func TestAToolCallNoToolWasOfferedFor(t *testing.T) {
	oa := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"rm_rf_everything","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
	}))
	defer oa.Close()
	an := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"m1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"I'll check."},{"type":"tool_use","id":"t1","name":"rm_rf_everything","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer an.Close()
	for _, p := range []Provider{NewOpenAI("openai", oa.URL, "k", oa.Client()), NewAnthropic("anthropic", an.URL, "k", an.Client())} {
		_, err := p.Complete(context.Background(), Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}, MaxTokens: 10})
		var e *Error
		if !errors.As(err, &e) || !e.Transient || !strings.Contains(err.Error(), `asked for tool "rm_rf_everything", but the request offered no tools`) {
			t.Errorf("%s: %v", p.Name(), err)
		}
	}
}
