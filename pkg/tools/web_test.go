package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestWebTools: WebFetch and WebSearch check their arguments and hand
// the call to what the step lends them; without it they say so.
func TestWebTools(t *testing.T) {
	var fetched, searched string
	env := Env{Dir: t.TempDir(),
		Fetch:  func(_ context.Context, u string) (string, error) { fetched = u; return "page text", nil },
		Search: func(_ context.Context, q string) (string, error) { searched = q; return "1. a result", nil },
	}
	bare := Env{Dir: env.Dir}
	for _, tc := range []struct {
		name, tool, args string
		env              Env
		want, err        string
	}{
		{"fetch", "WebFetch", `{"url": "https://example.com/a?b=1", "prompt": "the title"}`, env, "page text", ""},
		{"fetch without url", "WebFetch", `{}`, env, "", "url"},
		{"fetch of a file", "WebFetch", `{"url": "file:///etc/passwd"}`, env, "", "url must be an http or https address"},
		{"fetch with nowhere to go", "WebFetch", `{"url": "https://example.com"}`, bare, "", "cannot reach the network"},
		{"search", "WebSearch", `{"query": " go modules "}`, env, "1. a result", ""},
		{"search of nothing", "WebSearch", `{"query": "  "}`, env, "", "query must not be empty"},
		{"search without a provider", "WebSearch", `{"query": "x"}`, bare, "", "set search_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Run(context.Background(), tc.env, tc.tool, json.RawMessage(tc.args))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one holding %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("%q %v, want %q", got, err, tc.want)
			}
		})
	}
	if fetched != "https://example.com/a?b=1" || searched != "go modules" {
		t.Errorf("fetched %q searched %q", fetched, searched)
	}
	failing := Env{Dir: env.Dir, Search: func(context.Context, string) (string, error) { return "", errors.New("HTTP 503") }}
	if _, err := Run(context.Background(), failing, "WebSearch", json.RawMessage(`{"query":"x"}`)); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("a failing provider: %v", err)
	}
}
