package run

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestAStepsParamsReachItsRequest: params go into the request as the
// provider names them, max_output_tokens as the answer's cap.
func TestAStepsParamsReachItsRequest(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - id: ask
    model: openai/gpt-4o-mini
    prompt: hi
    prompt_cache_key: reviews
    params: {seed: 42, top_p: 0.5, stop: [END], presence_penalty: 0.1, frequency_penalty: 0.2, max_output_tokens: 300, extra: {user: ci}}
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded {
		t.Fatal(res.Error)
	}
	b := s.Requests()[0].Body
	for k, v := range map[string]any{"seed": 42.0, "top_p": 0.5, "presence_penalty": 0.1, "frequency_penalty": 0.2, "user": "ci",
		"max_completion_tokens": 300.0, "prompt_cache_key": "reviews"} {
		if b[k] != v {
			t.Errorf("%s = %v, want %v", k, b[k], v)
		}
	}
	if stop, _ := b["stop"].([]any); len(stop) != 1 || stop[0] != "END" {
		t.Errorf("stop = %v", b["stop"])
	}
}

// TestParamsAProviderDoesNotTakeAreRefusedBeforeTheRun: a parameter the
// step's provider does not take stops the run before anything runs,
// naming the provider, the parameter and the step.
func TestParamsAProviderDoesNotTakeAreRefusedBeforeTheRun(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	c := load(t, `
name: t
steps:
  - {id: first, type: cli, command: "true"}
  - {id: ask, model: anthropic/claude-sonnet-4-6, prompt: hi, params: {seed: 1, top_p: 0.9}, depends_on: [first]}
`)
	_, err := New(WithDir(t.TempDir()), withCatalog, WithModels(registryFor(s, nil))).Run(context.Background(), Request{Chain: c})
	if err == nil || !strings.Contains(err.Error(), "anthropic does not take seed") || !strings.Contains(err.Error(), `"ask"`) {
		t.Fatalf("err %v", err)
	}
	if s.Count() != 0 {
		t.Error("a request was sent")
	}
}

// TestWhatAnAPIRefusesIsFoundWithoutKeys: a parameter the model's API
// does not take, or a temperature above Anthropic's 1, is found by
// CheckModels (validate) as an error even on a machine without keys, for
// the model and for a fallback; a missing key stays a warning.
func TestWhatAnAPIRefusesIsFoundWithoutKeys(t *testing.T) {
	noKeys := llm.NewRegistry(nil, "", func(string) string { return "" }, nil)
	for _, tc := range []struct{ step, want string }{
		{"{id: a, model: anthropic/claude-sonnet-4-6, prompt: hi, params: {seed: 1}}", "anthropic does not take seed"},
		{"{id: a, model: anthropic/claude-sonnet-4-6, prompt: hi, temperature: 1.2}", "temperature 1.2: anthropic takes 0 to 1"},
		{"{id: a, model: openai/gpt-5, fallback_models: [anthropic/claude-haiku-4-5], prompt: hi, params: {reasoning_effort: low}}", "anthropic does not take reasoning_effort (the step's model anthropic/claude-haiku-4-5)"},
		{"{id: a, model: openai/gpt-5, prompt: hi, temperature: 1.2, params: {seed: 1}}", ""},
	} {
		c := load(t, "name: t\nsteps:\n  - "+tc.step+"\n")
		errs := New(WithModels(noKeys)).CheckModels(c)
		found := ModelErrors(errs)
		if tc.want == "" {
			if len(found) > 0 {
				t.Errorf("%s: %v", tc.step, found)
			}
		} else if len(found) != 1 || !strings.Contains(found[0].Message, tc.want) {
			t.Errorf("%s: errors %v, want %q", tc.step, found, tc.want)
		}
		if w := Warnings(c, errs); len(w) == 0 || !strings.Contains(w[len(w)-1].Message, "needs an API key") {
			t.Errorf("%s: warnings %v", tc.step, w)
		}
	}
}

// TestATemperatureAnthropicRefusesStopsTheRun: above 1 on an Anthropic
// model the run stops before anything runs, naming the step's field.
func TestATemperatureAnthropicRefusesStopsTheRun(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	c := load(t, "name: t\nsteps:\n  - {id: ask, model: anthropic/claude-sonnet-4-6, prompt: hi, temperature: 1.5}\n")
	_, err := New(WithDir(t.TempDir()), withCatalog, WithModels(registryFor(s, nil))).Run(context.Background(), Request{Chain: c})
	var pe *response.PreflightError
	if !errors.As(err, &pe) || pe.Kind != response.BadParams || pe.Pos.Line != 3 || !strings.Contains(pe.Msg, "temperature 1.5: anthropic takes 0 to 1") || s.Count() != 0 {
		t.Fatalf("%v (%d requests)", err, s.Count())
	}
}

// TestAJSONAnswerIsAskedForAtTheProvider: a json_schema guardrail's
// schema goes as the provider's structured output, so a provider that
// honours it answers validly at the first request.
func TestAJSONAnswerIsAskedForAtTheProvider(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if rf, _ := r.Body["response_format"].(map[string]any); rf["type"] == "json_schema" {
			return llmtest.Reply{Text: `{"verdict":"ship"}`}
		}
		return llmtest.Reply{Text: "Sure! The verdict is ship."}
	})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - id: judge
    model: openai/gpt-5-mini
    prompt: Ship or hold?
    guardrails:
      - type: json_schema
        value: {type: object, properties: {verdict: {type: string, enum: [ship, hold]}}, required: [verdict], additionalProperties: false}
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || s.Count() != 1 {
		t.Fatalf("%s after %d requests: %s", res.Status, s.Count(), res.Error)
	}
	js := s.Requests()[0].Body["response_format"].(map[string]any)["json_schema"].(map[string]any)
	if js["name"] != "judge" || js["strict"] != true {
		t.Errorf("json_schema %v", js)
	}
}

// TestALongToolLoopMarksThePromptCache: from its third turn a tool loop's
// requests carry Anthropic cache breakpoints; its first two do not.
func TestALongToolLoopMarksThePromptCache(t *testing.T) {
	var turn atomic.Int32
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if turn.Add(1) <= 3 {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Glob", Arguments: `{"pattern":"*.md"}`}}}
		}
		return llmtest.Reply{Text: "done"}
	})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: look, model: anthropic/claude-sonnet-4-6, system: be brief, prompt: look around, tools: [Glob]}
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || s.Count() != 4 {
		t.Fatalf("%s after %d: %s", res.Status, s.Count(), res.Error)
	}
	for i, r := range s.Requests() {
		if got, want := strings.Count(r.Raw(), `"cache_control"`), map[bool]int{false: 0, true: 3}[i >= 2]; got != want {
			t.Errorf("turn %d: %d breakpoints, want %d", i+1, got, want)
		}
	}
}

// TestParamsAreInTheAnswersKey: the same question with another seed is
// another question: it is asked, not served from the cache.
func TestParamsAreInTheAnswersKey(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	store := cache.Open(t.TempDir())
	for _, seed := range []string{"1", "1", "2"} {
		runChain(t, "name: t\nsteps:\n  - {id: a, model: openai/gpt-4o-mini, prompt: hi, cache: true, params: {seed: "+seed+"}}\n", nil,
			WithModels(registryFor(s, nil)), WithCache(store, true))
	}
	if s.Count() != 2 {
		t.Errorf("%d requests for seeds 1, 1, 2: want 2", s.Count())
	}
}
