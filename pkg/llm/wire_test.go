package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// rawServer answers every request with one status, content type and
// body, and keeps the last request.
func rawServer(t *testing.T, status int, contentType, body string) (*httptest.Server, *http.Request) {
	t.Helper()
	var last http.Request
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last = *r.Clone(context.Background())
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s, &last
}

func hello(stream bool) llm.Request {
	r := llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.User, Content: "hi"}}}
	if stream {
		r.OnDelta = func(string) {}
	}
	return r
}

// TestErrorBodiesOfEveryShape: the message comes from the typed error
// body whatever shape a server gives it; the status alone decides
// whether it is transient.
func TestErrorBodiesOfEveryShape(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		message    string
		transient  bool
	}{
		{"messages", `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens too large"}}`, 400, "max_tokens too large", false},
		{"chat completions", `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, 401, "Incorrect API key", false},
		{"plain error string", `{"error":"model 'llama9' not found"}`, 404, "model 'llama9' not found", false},
		{"top-level message", `{"message":"upstream unavailable"}`, 503, "upstream unavailable", true},
		{"not JSON", `<html>Bad Gateway</html>`, 502, "Bad Gateway", true},
		{"empty", ``, 429, "Too Many Requests", true},
	}
	for _, tt := range tests {
		s, _ := rawServer(t, tt.status, "application/json", tt.body)
		for _, p := range []llm.Provider{llm.NewOpenAI("openai", s.URL+"/v1", "k", nil), llm.NewAnthropic("anthropic", s.URL, "k", nil)} {
			_, err := p.Complete(context.Background(), hello(false))
			var e *llm.Error
			if !errors.As(err, &e) || e.Status != tt.status || e.Transient != tt.transient || !strings.Contains(e.Message, tt.message) {
				t.Errorf("%s/%s: %#v", tt.name, p.Name(), err)
			}
		}
	}
}

// TestAnOKBodyThatIsAnErrorIsReadAsOne: some compatible servers answer
// 200 with an error object and no choices.
func TestAnOKBodyThatIsAnErrorIsReadAsOne(t *testing.T) {
	s, _ := rawServer(t, 200, "application/json", `{"error":{"message":"context length exceeded","type":"invalid_request_error"}}`)
	_, err := llm.NewOpenAI("vllm", s.URL+"/v1", "", nil).Complete(context.Background(), hello(false))
	if err == nil || llm.IsTransient(err) || !strings.Contains(err.Error(), "context length exceeded") {
		t.Fatalf("got %v", err)
	}
}

// TestStreamsAreReadAsTheStandardSaysAndErrorsByType: comments, CRLF line
// ends, events split across data lines, and an error event whose type
// says the request is wrong (permanent) or the server is busy (transient).
func TestStreamsAreReadAsTheStandardSaysAndErrorsByType(t *testing.T) {
	okStream := ": keep-alive\r\n\r\n" +
		"data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\r\n\r\n" +
		"data: {\"model\":\"m\",\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\r\n\r\n" +
		"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}\n\n" +
		"data: [DONE]\n\n"
	s, _ := rawServer(t, 200, "text/event-stream", okStream)
	var got strings.Builder
	req := hello(true)
	req.OnDelta = func(d string) { got.WriteString(d) }
	resp, err := llm.NewOpenAI("openai", s.URL+"/v1", "k", nil).Complete(context.Background(), req)
	if err != nil || resp.Text != "Hello" || got.String() != "Hello" || resp.Usage.InputTokens != 3 || resp.Usage.OutputTokens != 2 {
		t.Fatalf("%+v %v (deltas %q)", resp, err, got.String())
	}
	for _, tt := range []struct {
		kind      string
		transient bool
	}{{"overloaded_error", true}, {"invalid_request_error", false}} {
		body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":1}}}\n\n" +
			fmt.Sprintf("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":%q,\"message\":\"no\"}}\n\n", tt.kind)
		s, _ := rawServer(t, 200, "text/event-stream", body)
		_, err := llm.NewAnthropic("anthropic", s.URL, "k", nil).Complete(context.Background(), hello(true))
		if err == nil || llm.IsTransient(err) != tt.transient {
			t.Errorf("%s: %v", tt.kind, err)
		}
	}
	s, _ = rawServer(t, 200, "text/event-stream", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\ndata: {not json\n\n")
	if _, err := llm.NewOpenAI("openai", s.URL+"/v1", "k", nil).Complete(context.Background(), hello(true)); !llm.IsTransient(err) || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("a garbled chunk: %v", err)
	}
}

// TestOpenAIRequestsSendTheDefaultMaxTokens: a step with no max_tokens
// still caps the answer, in the field the server knows.
func TestOpenAIRequestsSendTheDefaultMaxTokens(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	for _, p := range []llm.Provider{llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil), llm.NewOpenAI("vllm", s.OpenAIURL(), "", nil)} {
		if _, err := p.Complete(context.Background(), hello(false)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	if reqs[0].Body["max_completion_tokens"] != float64(llm.DefaultMaxTokens) || reqs[1].Body["max_tokens"] != float64(llm.DefaultMaxTokens) {
		t.Errorf("bodies %v / %v", reqs[0].Body, reqs[1].Body)
	}
	if _, ok := reqs[1].Header["Authorization"]; ok {
		t.Errorf("a keyless server got an Authorization header")
	}
}

// TestProviderSettingsFromConfig: headers (with $VARS), api_key_file,
// api_key_cmd, Azure's deployment URLs and api-key header, aliases.
func TestProviderSettingsFromConfig(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	os.WriteFile(keyFile, []byte("file-key-77\n"), 0o600)
	env := map[string]string{"GW_TOKEN": "gw-secret", "HOME": dir}
	getenv := func(k string) string { return env[k] }
	r := llm.NewRegistry(map[string]llm.ProviderConfig{
		"gw":    {Type: "openai", BaseURL: s.OpenAIURL(), APIKeyFile: "~/key", Headers: map[string]string{"X-Route": "team-a", "X-Gw-Auth": "Bearer ${GW_TOKEN}"}},
		"vault": {Type: "anthropic", BaseURL: s.URL, APIKeyCmd: "printf 'cmd-key-88\\n'"},
		"az":    {Type: "azure", BaseURL: s.URL, APIKeyEnv: "GW_TOKEN", APIVersion: "2025-01-01-preview"},
	}, "", getenv, nil)
	r.SetAliases(map[string]llm.Alias{"fast": {Model: "gw/small"}, "best": {Model: "fast"}, "deploy": {Model: "az/gpt4o-prod"}})
	for _, model := range []string{"best", "vault/claude", "deploy"} {
		tg, err := r.Target(model)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tg.Provider.Complete(context.Background(), llm.Request{Model: tg.Model, Messages: []llm.Message{{Role: llm.User, Content: "hi"}}}); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
	}
	reqs := s.Requests()
	gw, vault, az := reqs[0], reqs[1], reqs[2]
	if gw.Header.Get("Authorization") != "Bearer file-key-77" || gw.Header.Get("X-Route") != "team-a" || gw.Header.Get("X-Gw-Auth") != "Bearer gw-secret" || gw.Body["model"] != "small" {
		t.Errorf("gw: %v %v", gw.Header, gw.Body["model"])
	}
	if vault.Header.Get("X-Api-Key") != "cmd-key-88" || vault.Header.Get("Anthropic-Version") == "" {
		t.Errorf("vault: %v", vault.Header)
	}
	if az.Path != "/openai/deployments/gpt4o-prod/chat/completions" || az.Header.Get("Api-Key") != "gw-secret" || az.Header.Get("Authorization") != "" || az.Body["max_completion_tokens"] == nil {
		t.Errorf("azure: %s %v %v", az.Path, az.Header, az.Body)
	}
	r.SetAliases(map[string]llm.Alias{"a": {Model: "b"}, "b": {Model: "a"}})
	if _, err := r.Target("a"); err == nil || !strings.Contains(err.Error(), "a → b → a") {
		t.Errorf("an alias cycle: %v", err)
	}
}

// TestKeySourcesFailClearly: a failing, silent or slow key command and a
// missing key file name the source and never print a key.
func TestKeySourcesFailClearly(t *testing.T) {
	getenv := func(string) string { return "" }
	tests := []struct {
		cfg     llm.ProviderConfig
		want    string
		missing bool
	}{
		{llm.ProviderConfig{Type: "openai", BaseURL: "http://127.0.0.1:1/v1", APIKeyCmd: "echo sk-leak-99 >/dev/null; echo locked >&2; exit 3"}, "failed: exit status 3: locked", false},
		{llm.ProviderConfig{Type: "openai", BaseURL: "http://127.0.0.1:1/v1", APIKeyCmd: "true"}, "printed nothing", true},
		{llm.ProviderConfig{Type: "openai", BaseURL: "http://127.0.0.1:1/v1", APIKeyFile: "/nonexistent/key"}, "api_key_file /nonexistent/key: no such file", true},
	}
	for _, tt := range tests {
		_, err := llm.NewRegistry(map[string]llm.ProviderConfig{"p": tt.cfg}, "", getenv, nil).Target("p/m")
		var ce *llm.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || ce.MissingKey != tt.missing || strings.Contains(err.Error(), "sk-leak") && !strings.Contains(tt.cfg.APIKeyCmd, "sk-leak") {
			t.Errorf("%+v: %v", tt.cfg, err)
		}
	}
}

func TestCheckProvidersRefusesWhatCannotWork(t *testing.T) {
	for cfg, want := range map[string]llm.ProviderConfig{
		"type":        {Type: "bedrock", BaseURL: "https://x"},
		"one of":      {Type: "openai", BaseURL: "https://x", APIKeyEnv: "K", APIKeyCmd: "pass k"},
		"api_version": {Type: "openai", BaseURL: "https://x", APIVersion: "2024-10-21"},
		"line break":  {Type: "openai", BaseURL: "https://x", Headers: map[string]string{"X-A": "a\r\nX-Injected: 1"}},
		"header name": {Type: "openai", BaseURL: "https://x", Headers: map[string]string{"X A": "a"}},
	} {
		err := llm.CheckProviders(map[string]llm.ProviderConfig{"p": want})
		if err == nil || !strings.Contains(err.Error(), cfg) || !strings.Contains(err.Error(), "providers.p") {
			t.Errorf("%s: %v", cfg, err)
		}
	}
}

func TestProvidersAndAliasesFromConfig(t *testing.T) {
	got, err := llm.ProvidersFromConfig(map[string]any{"gw": map[string]any{"type": "openai", "base_url": "http://x/v1", "headers": map[string]any{"x-a": "b"}, "requests_per_minute": 60}})
	if err != nil || got["gw"].Headers["x-a"] != "b" || got["gw"].RequestsPerMinute != 60 {
		t.Fatalf("%+v %v", got, err)
	}
	for raw, want := range map[string]any{
		`providers.gw.requests_per_minute: want int`: map[string]any{"gw": map[string]any{"type": "openai", "base_url": "http://x", "requests_per_minute": "lots"}},
		`unknown field "api_key"`:                    map[string]any{"gw": map[string]any{"api_key": "sk"}},
		`type is required`:                           map[string]any{"gw": map[string]any{"base_url": "http://x"}},
	} {
		if _, err := llm.ProvidersFromConfig(want); err == nil || !strings.Contains(err.Error(), raw) {
			t.Errorf("%s: %v", raw, err)
		}
	}
	if a, err := llm.AliasesFromConfig(map[string]any{"fast": "anthropic/claude-haiku-4-5"}, nil); err != nil || a["fast"].Model != "anthropic/claude-haiku-4-5" {
		t.Errorf("%v %v", a, err)
	}
	if _, err := llm.AliasesFromConfig(map[string]any{"fast": []any{"a"}}, nil); err == nil || !strings.Contains(err.Error(), "model_aliases.fast") {
		t.Errorf("a list as an alias: %v", err)
	}
	if got, err := llm.ProvidersFromConfig(nil); err != nil || len(got) != 0 {
		t.Errorf("no providers: %v %v", got, err)
	}
}

// TestAStreamAnsweredWithOneBodyIsReadWhole: a server asked to stream
// that answers with a single JSON body (an error, or no streaming) is
// read as that body, not taken for a cut stream.
func TestAStreamAnsweredWithOneBodyIsReadWhole(t *testing.T) {
	s, _ := rawServer(t, 200, "application/json", `{"error":{"message":"streaming is not supported for this model","type":"invalid_request_error"}}`)
	_, err := llm.NewOpenAI("vllm", s.URL+"/v1", "", nil).Complete(context.Background(), hello(true))
	if err == nil || llm.IsTransient(err) || !strings.Contains(err.Error(), "streaming is not supported") {
		t.Errorf("openai: %v", err)
	}
	s, _ = rawServer(t, 200, "application/json", `{"model":"m","stop_reason":"end_turn","content":[{"type":"text","text":"whole"}],"usage":{"input_tokens":1,"output_tokens":1}}`)
	resp, err := llm.NewAnthropic("anthropic", s.URL, "k", nil).Complete(context.Background(), hello(true))
	if err != nil || resp.Text != "whole" {
		t.Errorf("anthropic: %+v %v", resp, err)
	}
}
