package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// registryFor points the anthropic and openai providers at one fake
// server (it speaks both wire formats).
func registryFor(s *llmtest.Server, env map[string]string) *llm.Registry {
	full := map[string]string{"ANTHROPIC_API_KEY": "ak-test", "OPENAI_API_KEY": "ok-test",
		"ANTHROPIC_BASE_URL": s.AnthropicURL(), "OPENAI_BASE_URL": s.OpenAIURL()}
	for k, v := range env {
		full[k] = v
	}
	return llm.NewRegistry(nil, "", func(k string) string { return full[k] }, nil)
}

func TestAgentStepBetweenShellSteps(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: "summary of: " + r.LastUserMessage()}
	})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: facts, type: cli, command: echo, args: [the facts], output_var: facts}
  - id: think
    depends_on: [facts]
    model: anthropic/claude-sonnet-4-6
    system: be brief
    temperature: 0.1
    max_tokens: 100
    prompt: "Summarise {facts}"
    output_var: summary
  - {id: shout, type: transform, depends_on: [think], expr: upper(summary), output_var: out}
output: out
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "SUMMARY OF: SUMMARISE THE FACTS" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	think := step(t, res, "think")
	if think.Model != "anthropic/claude-sonnet-4-6" || think.Usage == nil || think.Usage.LLMCalls != 1 || think.Usage.OutputTokens == 0 {
		t.Errorf("think = %+v usage %+v", think, think.Usage)
	}
	if res.Usage.LLMCalls != 1 || res.Usage.InputTokens != think.Usage.InputTokens {
		t.Errorf("run usage = %+v", res.Usage)
	}
	req := s.Requests()[0]
	if req.Path != "/v1/messages" || req.Body["temperature"] != 0.1 || req.Body["max_tokens"] != 100.0 {
		t.Errorf("request = %s %v", req.Path, req.Body)
	}
}

func TestAgentDefaultModelAndFallback(t *testing.T) {
	rec := &event.Recorder{}
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if r.Body["model"] == "big" {
			return llmtest.Reply{Status: 503}
		}
		return llmtest.Reply{Text: "from " + r.Body["model"].(string)}
	})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: ask, prompt: hi, fallback_models: [openai/small], retry: {max: 2, delay_ms: 1}, output_var: a}
output: a
`, nil, WithModels(registryFor(s, nil)), WithDefaultModel("anthropic/big"), WithEvents(rec))
	if res.Status != record.Succeeded || res.Output != "from small" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	ask := step(t, res, "ask")
	if ask.Model != "openai/small" || ask.Usage.LLMCalls != 3 || ask.Attempts != 1 {
		t.Errorf("ask = %+v usage %+v", ask, ask.Usage)
	}
	// the move to the fallback is announced once, before its answer
	var told []string
	for _, e := range rec.Events() {
		switch {
		case e.Type == event.LLMFallback:
			told = append(told, fmt.Sprintf("fallback to %s after %s: %s", e.Model, e.Detail, e.Error))
		case e.Type == event.LLMCall && e.Status == event.OK:
			told = append(told, "answer from "+e.Model)
		}
	}
	if want := []string{"fallback to openai/small after anthropic/big: anthropic: HTTP 503: scripted error 503", "answer from openai/small"}; !slices.Equal(told, want) {
		t.Errorf("events %q, want %q", told, want)
	}
}

func TestAgentPermanentErrorDoesNotRetry(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Status: 401})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: ask, model: openai/gpt-4o-mini, prompt: hi, fallback_models: [anthropic/claude-haiku-4-5], retry: 3}
`, nil, WithModels(registryFor(s, nil)))
	ask := step(t, res, "ask")
	if res.Status != record.Failed || s.Count() != 1 || !strings.Contains(ask.Error, "HTTP 401") {
		t.Fatalf("status %s requests %d step %+v", res.Status, s.Count(), ask)
	}
	if strings.Contains(ask.Error, "ok-test") {
		t.Error("the API key appears in the error")
	}
}

func TestAgentTransientErrorsGetTwoMoreAttemptsByDefault(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Status: 500}, llmtest.Reply{Status: 429, RetryAfter: "0"}, llmtest.Reply{Text: "third time"})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: ask, model: openai/gpt-4o-mini, prompt: hi, output_var: a}
output: a
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "third time" || step(t, res, "ask").Usage.LLMCalls != 3 {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
}

func TestAgentGuardrailRetryTellsTheModel(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.LastUserMessage(), "broke these rules") {
			return llmtest.Reply{Text: "## Summary\nall good"}
		}
		return llmtest.Reply{Text: "no heading"}
	})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - id: write
    model: openai/gpt-4o-mini
    prompt: write it
    retry: {max: 2, delay_ms: 1}
    guardrails: [{type: must_contain, value: "## Summary"}]
    output_var: doc
output: doc
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "## Summary\nall good" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastUserMessage(), `must_contain: output does not contain "## Summary"`) {
		t.Fatalf("second request did not carry the violation: %v", reqs)
	}
	if msgs := reqs[1].Body["messages"].([]any); len(msgs) != 3 {
		t.Errorf("the retry should send prompt, bad answer, feedback: %v", msgs)
	}
	if w := step(t, res, "write"); w.Attempts != 2 || w.Usage.LLMCalls != 2 {
		t.Errorf("write = %+v", w)
	}
	// Without retry, a guardrail failure fails the step naming the rule.
	s2 := llmtest.New(llmtest.Reply{Text: "short"})
	defer s2.Close()
	res = runChain(t, `
name: t
steps:
  - {id: write, model: openai/gpt-4o-mini, prompt: w, guardrails: [{type: min_length, value: 50}]}
`, nil, WithModels(registryFor(s2, nil)))
	if w := step(t, res, "write"); res.Status != record.Failed || !strings.Contains(w.Error, "min_length") || s2.Count() != 1 {
		t.Fatalf("step = %+v", w)
	}
}

func TestAgentJSONOutputAndFields(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "```json\n{\"verdict\": \"ok\", \"score\": 9}\n```"})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: judge, model: openai/gpt-4o-mini, prompt: judge, output_schema: json, output_var: res}
  - {id: use, type: transform, depends_on: [judge], expr: 'res.verdict + " " + string(res.score)', output_var: out}
output: out
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "ok 9" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
}

func TestAgentContextTruncate(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: r.LastUserMessage()} })
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: big, type: cli, command: echo, args: [abcdefghijklmnop], output_var: big}
  - {id: ask, model: openai/m, depends_on: [big], prompt: "<{big}>", context_strategy: {big: "truncate:5"}, output_var: a}
output: a
`, nil, WithModels(registryFor(s, nil)))
	if res.Output != "<abcde…>" {
		t.Fatalf("output %#v err %s", res.Output, res.Error)
	}
}

func TestAgentStreamingEvents(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "streamed answer"})
	defer s.Close()
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
steps:
  - {id: ask, model: anthropic/claude-x, prompt: hi, output_var: a}
output: a
`, nil, WithModels(registryFor(s, nil)), WithStreaming(true), WithEvents(rec))
	if res.Output != "streamed answer" {
		t.Fatalf("output %#v err %s", res.Output, res.Error)
	}
	var deltas strings.Builder
	calls := 0
	for _, e := range rec.Events() {
		switch e.Type {
		case event.LLMDelta:
			deltas.WriteString(e.Line)
		case event.LLMCall:
			calls++
			if e.Model != "anthropic/claude-x" || e.Status != "ok" || e.OutputTokens == 0 {
				t.Errorf("llm.call event = %+v", e)
			}
		}
	}
	if deltas.String() != "streamed answer" || calls != 1 {
		t.Errorf("deltas %q calls %d", deltas.String(), calls)
	}
}

func TestAgentModelProblemsStopTheRunBeforeItStarts(t *testing.T) {
	s := llmtest.New()
	defer s.Close()
	for src, want := range map[string]string{
		"name: t\nsteps:\n  - {id: mark, type: cli, command: touch, args: [ran]}\n  - {id: ask, prompt: hi}\n":                                         "no model: set model: on the step, --model, CHAINRUN_MODEL or default_model",
		"name: t\nsteps:\n  - {id: mark, type: cli, command: touch, args: [ran]}\n  - {id: ask, model: gpt-4o, prompt: hi}\n":                          "needs an API key: set OPENAI_API_KEY",
		"name: t\nsteps:\n  - {id: mark, type: cli, command: touch, args: [ran]}\n  - {id: ask, model: nope/x, prompt: hi}\n":                          `no provider named "nope"`,
		"name: t\nsteps:\n  - {id: mark, type: cli, command: touch, args: [ran]}\n  - {id: ask, model: claude-x, fallback_models: [zz], prompt: hi}\n": "cannot tell its provider",
	} {
		dir := t.TempDir()
		_, err := New(WithDir(dir), WithModels(registryFor(s, map[string]string{"OPENAI_API_KEY": ""}))).Run(context.Background(), Request{Chain: load(t, src)})
		var me *response.PreflightError
		if !errors.As(err, &me) || me.Kind != response.BadModel || !strings.Contains(err.Error(), want) {
			t.Errorf("want ModelError %q, got %v", want, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Error("a step ran before the model problem was reported")
		}
	}
	if s.Count() != 0 {
		t.Error("a request was sent")
	}
}

func TestAgentCache(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "answer to " + r.LastUserMessage()} })
	defer s.Close()
	store := cache.Open(t.TempDir())
	src := `
name: t
inputs: [q]
steps:
  - {id: ask, model: openai/m, prompt: "{input.q}", cache: {enabled: true, ttl_minutes: 5}, output_var: a}
output: a
`
	first := runChain(t, src, map[string]string{"q": "one"}, WithModels(registryFor(s, nil)), WithCache(store, true))
	second := runChain(t, src, map[string]string{"q": "one"}, WithModels(registryFor(s, nil)), WithCache(store, true))
	if s.Count() != 1 {
		t.Fatalf("the second run sent a request (%d in all)", s.Count())
	}
	if second.Output != first.Output || step(t, second, "ask").Status != record.StepCached || second.Usage.Cached != 1 || second.Usage.LLMCalls != 0 {
		t.Fatalf("second run = %+v", second)
	}
	if step(t, second, "ask").Model != "openai/m" {
		t.Errorf("a cached step should still say which model answered")
	}
	runChain(t, src, map[string]string{"q": "two"}, WithModels(registryFor(s, nil)), WithCache(store, true))
	if s.Count() != 2 {
		t.Fatalf("another prompt must miss the cache (%d requests)", s.Count())
	}
	runChain(t, src, map[string]string{"q": "one"}, WithModels(registryFor(s, nil)), WithCache(store, false))
	if s.Count() != 3 {
		t.Fatalf("--no-cache must not read the cache (%d requests)", s.Count())
	}
	// An answer that breaks its guardrails is never stored.
	bad := llmtest.New(llmtest.Reply{Text: "short"})
	defer bad.Close()
	guarded := "name: t\nsteps:\n  - {id: g, model: openai/m, prompt: p, cache: true, guardrails: [{type: min_length, value: 99}]}\n"
	runChain(t, guarded, nil, WithModels(registryFor(bad, nil)), WithCache(store, true))
	runChain(t, guarded, nil, WithModels(registryFor(bad, nil)), WithCache(store, true))
	if bad.Count() != 2 {
		t.Fatalf("a failing answer was served from the cache (%d requests)", bad.Count())
	}
}

func TestBudgetStopsTheRunBeforeTheCallThatWouldExceedIt(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "an answer"})
	defer s.Close()
	res := runChain(t, `
name: t
budget: {max_llm_calls: 2}
steps:
  - {id: a, model: openai/m, prompt: one, output_var: a}
  - {id: b, model: openai/m, prompt: two, depends_on: [a], output_var: b}
  - {id: c, model: openai/m, prompt: three, depends_on: [b], output_var: c}
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Failed || s.Count() != 2 || !strings.Contains(res.Error, "step c failed") || !strings.Contains(res.Error, "budget is spent: max_llm_calls 2 reached") {
		t.Fatalf("status %s requests %d error %s", res.Status, s.Count(), res.Error)
	}
	if res.Usage.LLMCalls != 2 {
		t.Errorf("a refused request counted as a call: llm_calls = %d", res.Usage.LLMCalls)
	}
	if step(t, res, "a").Status != record.StepSucceeded || res.Vars["b"] != "an answer" {
		t.Errorf("finished work was not kept: %+v", res)
	}
	// --max-tokens: the first call spends it all; the answer was capped.
	s2 := llmtest.New(llmtest.Reply{Text: "a long answer of many tokens"})
	defer s2.Close()
	res2, err := New(WithDir(t.TempDir()), WithModels(registryFor(s2, nil))).Run(context.Background(), Request{Chain: load(t, `
name: t
steps:
  - {id: a, model: openai/m, prompt: one, max_tokens: 500, output_var: a}
  - {id: b, model: openai/m, prompt: two, depends_on: [a]}
`), MaxTokens: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Status != record.Failed || s2.Count() != 1 || !strings.Contains(res2.Error, "max_tokens 5 reached") {
		t.Fatalf("status %s requests %d error %s", res2.Status, s2.Count(), res2.Error)
	}
	if got := s2.Requests()[0].Body["max_completion_tokens"]; got != 5.0 {
		t.Errorf("the answer was not capped at the tokens left: max_tokens = %v", got)
	}
}

func TestAgentContextSummarize(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.HasPrefix(r.LastUserMessage(), "Summarise the following") {
			return llmtest.Reply{Text: "SHORT"}
		}
		return llmtest.Reply{Text: "final: " + r.LastUserMessage()}
	})
	defer s.Close()
	src := `
name: t
steps:
  - {id: big, type: cli, command: echo, args: [a very long report], output_var: report}
  - {id: ask, model: openai/m, depends_on: [big], prompt: "Given {report}", context_strategy: {big: summarize}, output_var: a}
output: a
`
	store := cache.Open(t.TempDir())
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
	if res.Output != "final: Given SHORT" || step(t, res, "ask").Usage.LLMCalls != 2 {
		t.Fatalf("output %#v usage %+v err %s", res.Output, step(t, res, "ask").Usage, res.Error)
	}
	res = runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
	if u := step(t, res, "ask").Usage; s.Count() != 3 || u.Cached != 1 || u.LLMCalls != 1 {
		t.Fatalf("the summary was not cached: requests %d usage %+v", s.Count(), u)
	}
}

func TestAgentSlowServerHitsTimeout(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "late", Delay: 5 * time.Second})
	defer s.Close()
	start := time.Now()
	res := runChain(t, `
name: t
steps:
  - {id: ask, model: openai/m, prompt: hi, timeout_ms: 300}
`, nil, WithModels(registryFor(s, nil)))
	if time.Since(start) > 3*time.Second {
		t.Fatalf("timeout_ms did not stop the call (%s)", time.Since(start))
	}
	if a := step(t, res, "ask"); res.Status != record.Failed || !strings.Contains(a.Error, "timed out after 300ms") {
		t.Fatalf("step = %+v", a)
	}
}

func TestBudgetHoldsWithParallelSteps(t *testing.T) {
	// slow answers keep the requests admitted together in flight together;
	// the others wait for room (they are not refused while calls in
	// flight may give some back)
	const delay = 300 * time.Millisecond
	type sent struct {
		at       time.Time
		promised int
	}
	var mu sync.Mutex
	var log []sent
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		log = append(log, sent{time.Now(), int(r.Body["max_completion_tokens"].(float64))})
		mu.Unlock()
		return llmtest.Reply{Text: strings.Repeat("word ", 40), Delay: delay}
	})
	defer s.Close()
	res := runChain(t, `
name: t
budget: {max_tokens: 100}
steps:
  - {id: a, model: openai/m, prompt: p1, continue_on_error: true}
  - {id: b, model: openai/m, prompt: p2, continue_on_error: true}
  - {id: c, model: openai/m, prompt: p3, continue_on_error: true}
  - {id: d, model: openai/m, prompt: p4, continue_on_error: true}
`, nil, WithModels(registryFor(s, nil)), WithParallel(4))
	mu.Lock()
	defer mu.Unlock()
	for _, r := range log {
		// the promises of the requests in flight when r was sent
		asked := 0
		for _, o := range log {
			if !o.at.After(r.at) && r.at.Sub(o.at) < delay {
				asked += o.promised
			}
		}
		if asked > 100 {
			t.Fatalf("parallel steps were promised %d answer tokens with a budget of 100", asked)
		}
	}
	if len(log) < 2 {
		t.Errorf("the steps waiting for room were refused: %d requests sent", len(log))
	}
	_ = res
}

func TestCacheSkipsTruncatedAndStaleAnswers(t *testing.T) {
	store := cache.Open(t.TempDir())
	cut := llmtest.New(llmtest.Reply{Text: "The answer is", Finish: "length"})
	defer cut.Close()
	src := "name: t\nsteps:\n  - {id: a, model: openai/m, prompt: p, cache: true, output_var: a}\noutput: a\n"
	runChain(t, src, nil, WithModels(registryFor(cut, nil)), WithCache(store, true))
	runChain(t, src, nil, WithModels(registryFor(cut, nil)), WithCache(store, true))
	if cut.Count() != 2 {
		t.Fatalf("an answer cut at max_tokens was served from the cache (%d requests)", cut.Count())
	}
	// A stored answer that breaks a guardrail added since is a miss.
	ok := llmtest.New(llmtest.Reply{Text: "short"})
	defer ok.Close()
	runChain(t, src, nil, WithModels(registryFor(ok, nil)), WithCache(store, true))
	long := llmtest.New(llmtest.Reply{Text: "a much longer answer than before"})
	defer long.Close()
	tightened := "name: t\nsteps:\n  - {id: a, model: openai/m, prompt: p, cache: true, guardrails: [{type: min_length, value: 10}], output_var: a}\noutput: a\n"
	res := runChain(t, tightened, nil, WithModels(registryFor(long, nil)), WithCache(store, true))
	if res.Status != record.Succeeded || long.Count() != 1 || res.Output != "a much longer answer than before" {
		t.Fatalf("status %s requests %d output %#v", res.Status, long.Count(), res.Output)
	}
}
