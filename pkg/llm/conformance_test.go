package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// adapters are every Provider implementation, each pointed at a fake
// server in its own wire format. Every adapter must pass the same suite.
var adapters = []struct {
	name string
	make func(s *llmtest.Server, key string) llm.Provider
}{
	{"anthropic", func(s *llmtest.Server, key string) llm.Provider {
		return llm.NewAnthropic("anthropic", s.AnthropicURL(), key, nil)
	}},
	{"openai", func(s *llmtest.Server, key string) llm.Provider {
		return llm.NewOpenAI("openai", s.OpenAIURL(), key, nil)
	}},
}

func forEachAdapter(t *testing.T, f func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool)) {
	for _, a := range adapters {
		for _, stream := range []bool{false, true} {
			name := a.name + "/json"
			if stream {
				name = a.name + "/sse"
			}
			t.Run(name, func(t *testing.T) {
				f(t, func(s *llmtest.Server) llm.Provider { return a.make(s, "test-key-123") }, stream)
			})
		}
	}
}

func request(stream bool, deltas *strings.Builder) llm.Request {
	temp := 0.2
	r := llm.Request{Model: "m-1", System: "be brief", Messages: []llm.Message{{Role: llm.User, Content: "hello"}}, Temperature: &temp, MaxTokens: 50}
	if stream {
		r.OnDelta = func(s string) { deltas.WriteString(s) }
	}
	return r
}

func TestConformanceSuccess(t *testing.T) {
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		s := llmtest.New(llmtest.Reply{Text: "Hello there, friend"})
		defer s.Close()
		var deltas strings.Builder
		resp, err := mk(s).Complete(context.Background(), request(stream, &deltas))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != "Hello there, friend" || resp.FinishReason != llm.FinishStop || resp.Model != "m-1" {
			t.Errorf("response = %+v", resp)
		}
		if resp.Usage.InputTokens == 0 || resp.Usage.OutputTokens != 4 {
			t.Errorf("usage = %+v", resp.Usage)
		}
		if stream && deltas.String() != "Hello there, friend" {
			t.Errorf("streamed %q", deltas.String())
		}
		req := s.Requests()[0]
		if req.LastUserMessage() != "hello" || req.Body["temperature"] != 0.2 {
			t.Errorf("request body = %v", req.Body)
		}
		if got, _ := req.Body["stream"].(bool); got != stream {
			t.Errorf("stream = %v, want %v", got, stream)
		}
		if strings.HasSuffix(req.Path, "/chat/completions") {
			checkOpenAIBody(t, req.Body)
		}
		auth := req.Header.Get("Authorization") + req.Header.Get("X-Api-Key")
		if !strings.Contains(auth, "test-key-123") {
			t.Errorf("the key was not sent: %v", req.Header)
		}
	})
}

func TestConformanceFinishLength(t *testing.T) {
	for _, a := range adapters {
		finish := map[string]string{"anthropic": "max_tokens", "openai": "length"}[a.name]
		s := llmtest.New(llmtest.Reply{Text: "cut", Finish: finish})
		resp, err := a.make(s, "k").Complete(context.Background(), request(false, nil))
		s.Close()
		if err != nil || resp.FinishReason != llm.FinishLength {
			t.Errorf("%s: %+v %v", a.name, resp, err)
		}
	}
}

func TestConformanceErrors(t *testing.T) {
	tests := []struct {
		name      string
		reply     llmtest.Reply
		status    int
		transient bool
		retry     time.Duration
		message   string
	}{
		{"rate limited", llmtest.Reply{Status: 429, RetryAfter: "2"}, 429, true, 2 * time.Second, "scripted error 429"},
		{"server error", llmtest.Reply{Status: 500}, 500, true, 0, "scripted error 500"},
		{"overloaded", llmtest.Reply{Status: 529}, 529, true, 0, ""},
		{"unauthorized", llmtest.Reply{Status: 401}, 401, false, 0, "scripted error 401"},
		{"bad request", llmtest.Reply{Status: 400}, 400, false, 0, ""},
		{"not found", llmtest.Reply{Status: 404}, 404, false, 0, ""},
		{"unprocessable", llmtest.Reply{Status: 422}, 422, false, 0, ""},
		{"malformed body", llmtest.Reply{Raw: `{"id": "x", "content": [`}, 0, true, 0, "malformed"},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		for _, tt := range tests {
			if stream && tt.name == "malformed body" {
				continue // covered by the cut-stream test
			}
			s := llmtest.New(tt.reply)
			_, err := mk(s).Complete(context.Background(), request(stream, &strings.Builder{}))
			s.Close()
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Errorf("%s: want *llm.Error, got %T %v", tt.name, err, err)
				continue
			}
			if e.Status != tt.status || e.Transient != tt.transient || e.RetryAfter != tt.retry || !strings.Contains(e.Error(), tt.message) {
				t.Errorf("%s: got %+v (%v)", tt.name, e, e)
			}
			if strings.Contains(err.Error(), "test-key-123") {
				t.Errorf("%s: the key appears in the error: %v", tt.name, err)
			}
		}
	})
}

func TestConformanceCutStream(t *testing.T) {
	for _, a := range adapters {
		s := llmtest.New(llmtest.Reply{Text: "partial answer", CutStream: true})
		_, err := a.make(s, "k").Complete(context.Background(), request(true, &strings.Builder{}))
		s.Close()
		if !llm.IsTransient(err) {
			t.Errorf("%s: a cut stream gave %v, want a transient error", a.name, err)
		}
	}
}

func TestConformanceTimeoutAndRefused(t *testing.T) {
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		s := llmtest.New(llmtest.Reply{Text: "late", Delay: 5 * time.Second})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		_, err := mk(s).Complete(ctx, request(stream, &strings.Builder{}))
		cancel()
		s.Close()
		if time.Since(start) > 3*time.Second || !llm.IsTransient(err) {
			t.Errorf("slow server: %v after %s", err, time.Since(start))
		}
		dead := llmtest.New()
		p := mk(dead)
		dead.Close()
		if _, err := p.Complete(context.Background(), request(stream, &strings.Builder{})); !llm.IsTransient(err) {
			t.Errorf("refused connection: %v", err)
		}
	})
}

func TestCallRetriesHonouringRetryAfter(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Status: 429, RetryAfter: "0.3"}, llmtest.Reply{Status: 500}, llmtest.Reply{Text: "finally"})
	defer s.Close()
	p := llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil)
	var attempts []llm.Attempt
	start := time.Now()
	resp, target, sent, err := llm.Call(context.Background(), []llm.Target{{Provider: p, Model: "m"}}, request(false, nil),
		llm.Policy{Attempts: 3, Delay: 10 * time.Millisecond, Backoff: 2}, func(a llm.Attempt) { attempts = append(attempts, a) })
	if err != nil || resp.Text != "finally" || sent != 3 || target.Label() != "openai/m" {
		t.Fatalf("%v %+v sent=%d", err, resp, sent)
	}
	if time.Since(start) < 300*time.Millisecond {
		t.Error("Retry-After was not honoured")
	}
	if len(attempts) != 3 || attempts[0].Wait < 300*time.Millisecond {
		t.Errorf("attempts = %+v", attempts)
	}
}

func TestCallFallsBackOnlyOnTransientFailure(t *testing.T) {
	primary := llmtest.New(llmtest.Reply{Status: 503})
	defer primary.Close()
	backup := llmtest.New(llmtest.Reply{Text: "from backup"})
	defer backup.Close()
	targets := []llm.Target{
		{Provider: llm.NewAnthropic("anthropic", primary.AnthropicURL(), "k", nil), Model: "big"},
		{Provider: llm.NewOpenAI("openai", backup.OpenAIURL(), "k", nil), Model: "small"},
	}
	resp, target, sent, err := llm.Call(context.Background(), targets, request(false, nil), llm.Policy{Attempts: 2}, nil)
	if err != nil || resp.Text != "from backup" || target.Label() != "openai/small" || sent != 3 || primary.Count() != 2 {
		t.Fatalf("%v %+v %s sent=%d primary=%d", err, resp, target.Label(), sent, primary.Count())
	}

	bad := llmtest.New(llmtest.Reply{Status: 401})
	defer bad.Close()
	backup2 := llmtest.New(llmtest.Reply{Text: "never"})
	defer backup2.Close()
	targets = []llm.Target{
		{Provider: llm.NewOpenAI("openai", bad.OpenAIURL(), "k", nil), Model: "a"},
		{Provider: llm.NewOpenAI("openai", backup2.OpenAIURL(), "k", nil), Model: "b"},
	}
	_, _, sent, err = llm.Call(context.Background(), targets, request(false, nil), llm.Policy{Attempts: 3}, nil)
	if err == nil || sent != 1 || backup2.Count() != 0 {
		t.Fatalf("a 401 was retried or fell back: sent=%d backup=%d err=%v", sent, backup2.Count(), err)
	}
}

func TestCallStopsOnCancel(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Status: 429, RetryAfter: "30"})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, _, err := llm.Call(ctx, []llm.Target{{Provider: llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil), Model: "m"}}, request(false, nil), llm.Policy{Attempts: 5, MaxWait: time.Minute}, nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
}

func TestRegistry(t *testing.T) {
	env := map[string]string{"ANTHROPIC_API_KEY": "a", "MY_KEY": "m"}
	getenv := func(k string) string { return env[k] }
	r := llm.NewRegistry(map[string]llm.ProviderConfig{"local": {Type: "openai", BaseURL: "http://127.0.0.1:1/v1", APIKeyEnv: "MY_KEY"}}, "", getenv, http.DefaultClient)
	for model, want := range map[string]string{
		"anthropic/claude-sonnet-4-6": "anthropic/claude-sonnet-4-6",
		"claude-haiku-4-5":            "anthropic/claude-haiku-4-5",
		"ollama/llama3.2":             "ollama/llama3.2",
		"local/qwen":                  "local/qwen",
		"llama3.2:1b":                 "ollama/llama3.2:1b",
		"qwen2.5-coder:7b":            "ollama/qwen2.5-coder:7b",
	} {
		tg, err := r.Target(model)
		if err != nil || tg.Label() != want {
			t.Errorf("%s: %v %v", model, tg, err)
		}
	}
	for model, want := range map[string]string{
		"gpt-4o-mini":   "needs an API key: set OPENAI_API_KEY",
		"nope/x":        `no provider named "nope"`,
		"mystery-model": "cannot tell its provider",
		"llama3.2:":     "cannot tell its provider",
		":1b":           "cannot tell its provider",
	} {
		_, err := r.Target(model)
		var ce *llm.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", model, err)
		}
	}
	r = llm.NewRegistry(nil, "ollama", getenv, nil)
	if tg, err := r.Target("llama3.2"); err != nil || tg.Label() != "ollama/llama3.2" {
		t.Errorf("default_provider: %v %v", tg, err)
	}
}

func TestLimitedConcurrencyAndRate(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "x", Delay: 50 * time.Millisecond})
	defer s.Close()
	var mu sync.Mutex
	now, peak := 0, 0
	counting := countingProvider{Provider: llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil), enter: func(d int) {
		mu.Lock()
		now += d
		peak = max(peak, now)
		mu.Unlock()
	}}
	p := llm.Limited(counting, llm.Limits{Concurrent: 2, RequestsPerMinute: 600}) // one start per 100 ms
	var wg sync.WaitGroup
	start := time.Now()
	for range 5 {
		wg.Go(func() {
			if _, err := p.Complete(context.Background(), request(false, nil)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if peak > 2 {
		t.Errorf("%d requests in flight with a cap of 2", peak)
	}
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("5 requests at 600/min took %s, want at least 400ms", d)
	}
}

type countingProvider struct {
	llm.Provider
	enter func(int)
}

func (c countingProvider) Complete(ctx context.Context, r llm.Request) (*llm.Response, error) {
	c.enter(1)
	defer c.enter(-1)
	return c.Provider.Complete(ctx, r)
}

func TestOllamaNeedsNoKey(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "local answer"})
	defer s.Close()
	r := llm.NewRegistry(nil, "", func(k string) string {
		if k == "OLLAMA_HOST" {
			return strings.TrimPrefix(s.URL, "http://") // as Ollama users write it
		}
		return ""
	}, nil)
	tg, err := r.Target("ollama/llama3.2")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tg.Provider.Complete(context.Background(), llm.Request{Model: tg.Model, Messages: []llm.Message{{Role: llm.User, Content: "hi"}}})
	if err != nil || resp.Text != "local answer" {
		t.Fatalf("%+v %v", resp, err)
	}
	if req := s.Requests()[0]; req.Path != "/v1/chat/completions" || req.Body["model"] != "llama3.2" {
		t.Errorf("request %s %v", req.Path, req.Body)
	}
}

func TestConformanceErrorInsideStream(t *testing.T) {
	for _, a := range adapters {
		s := llmtest.New(llmtest.Reply{Text: "partial", StreamError: true})
		_, err := a.make(s, "k").Complete(context.Background(), request(true, &strings.Builder{}))
		s.Close()
		if !llm.IsTransient(err) {
			t.Errorf("%s: an error event inside a stream gave %v, want a transient error", a.name, err)
		}
	}
}

func TestEnvironmentCredentialsStayHome(t *testing.T) {
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "env-token-xyz")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: yes")
	for _, a := range adapters {
		s := llmtest.New(llmtest.Reply{Text: "ok"})
		if _, err := a.make(s, "own-key").Complete(context.Background(), request(false, nil)); err != nil {
			t.Fatal(err)
		}
		h := s.Requests()[0].Header
		s.Close()
		for name, values := range h {
			for _, v := range values {
				if strings.Contains(v, "env-token-xyz") || strings.Contains(v, "org-env") || strings.Contains(v, "proj-env") || name == "X-Leak" {
					t.Errorf("%s: the environment's %s reached the endpoint", a.name, name)
				}
			}
		}
	}
}

func TestTLSFailureIsPermanent(t *testing.T) {
	s := httptest.NewTLSServer(http.NotFoundHandler())
	defer s.Close()
	_, err := llm.NewOpenAI("openai", s.URL+"/v1", "k", &http.Client{}).Complete(context.Background(), request(false, nil))
	if err == nil || llm.IsTransient(err) {
		t.Fatalf("an unverifiable certificate gave %v, want a permanent error", err)
	}
}

func TestConfigReplacesBuiltinEndpoint(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "x"})
	defer s.Close()
	env := map[string]string{"OPENAI_API_KEY": "public", "OPENAI_BASE_URL": "http://public.invalid/v1", "VLLM_KEY": "v", "OLLAMA_HOST": s.URL}
	r := llm.NewRegistry(map[string]llm.ProviderConfig{
		"openai": {BaseURL: s.OpenAIURL(), APIKeyEnv: "VLLM_KEY"},
		"lan":    {Type: "ollama"},
	}, "", func(k string) string { return env[k] }, nil)
	for _, model := range []string{"openai/m", "lan/llama"} {
		tg, err := r.Target(model)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tg.Provider.Complete(context.Background(), request(false, nil)); err != nil {
			t.Fatalf("%s did not reach the configured endpoint: %v", model, err)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Header.Get("Authorization") != "Bearer v" {
		t.Fatalf("requests %d, auth %q", len(reqs), reqs[0].Header.Get("Authorization"))
	}
}
