package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// TestShouldRetryHeaderDecides: x-should-retry, which the providers' own
// SDKs obey, overrides the status either way; without it the status
// decides.
func TestShouldRetryHeaderDecides(t *testing.T) {
	tests := []struct {
		name   string
		status int
		header string
		sent   int
	}{
		{"500 the server says not to retry", 500, "false", 1},
		{"529 overloaded, not to retry", 529, "false", 1},
		{"429 not to retry", 429, "false", 1},
		{"409 the server says to retry", 409, "true", 3},
		{"400 the server says to retry", 400, "true", 3},
		{"500 without the header", 500, "", 3},
		{"400 without the header", 400, "", 1},
		{"a value neither true nor false", 500, "maybe", 3},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		for _, tt := range tests {
			reply := llmtest.Reply{Status: tt.status}
			if tt.header != "" {
				reply.Header = map[string]string{"X-Should-Retry": tt.header}
			}
			s := llmtest.New(reply)
			_, _, sent, err := llm.Call(context.Background(), []llm.Target{{Provider: mk(s), Model: "m"}}, request(stream, &strings.Builder{}), llm.Policy{Attempts: 3}, nil)
			s.Close()
			if err == nil || sent != tt.sent || s.Count() != tt.sent {
				t.Errorf("%s: %d requests (%d counted), want %d: %v", tt.name, s.Count(), sent, tt.sent, err)
			}
		}
	})
}

// TestShouldRetryFalseStillFallsBack: a server that says not to retry its
// 5xx or 429 is not asked again, but the next model is.
func TestShouldRetryFalseStillFallsBack(t *testing.T) {
	for _, status := range []int{429, 503, 400} {
		primary := llmtest.New(llmtest.Reply{Status: status, Header: map[string]string{"X-Should-Retry": "false"}})
		backup := llmtest.New(llmtest.Reply{Text: "from the backup"})
		targets := []llm.Target{
			{Provider: llm.NewAnthropic("anthropic", primary.AnthropicURL(), "k", nil), Model: "a"},
			{Provider: llm.NewOpenAI("openai", backup.OpenAIURL(), "k", nil), Model: "b"},
		}
		resp, _, _, err := llm.Call(context.Background(), targets, request(false, nil), llm.Policy{Attempts: 3}, nil)
		fellBack := err == nil && resp.Text == "from the backup"
		if primary.Count() != 1 || fellBack != (status != 400) {
			t.Errorf("%d: primary asked %d times, answer %+v, %v", status, primary.Count(), resp, err)
		}
		primary.Close()
		backup.Close()
	}
}
