package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// An answer in a ```json fence passes output_schema: json, is cached, and
// is served from the cache on the next run (the text the step stores is
// what its guardrails judge, on a fresh answer and on a cached one).
func TestFencedJSONAnswerIsServedFromTheCache(t *testing.T) {
	for _, answer := range []string{
		`{"verdict": "ok"}`,
		"```json\n{\"verdict\": \"ok\"}\n```",
		"```\n{\"verdict\": \"ok\"}\n```",
	} {
		s := llmtest.New(llmtest.Reply{Text: answer}, llmtest.Reply{Text: answer})
		store := cache.NewMem()
		src := `
name: t
steps:
  - id: review
    model: openai/m
    prompt: answer as JSON
    output_var: review
    output_schema: json
    cache: true
    guardrails: [{type: json_valid}, {type: regex_match, value: '^\{'}]
output: review
`
		var results []*record.Result
		for range 2 {
			results = append(results, runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true)))
		}
		s.Close()
		if s.Count() != 1 {
			t.Errorf("%q: %d model calls over two runs, want 1", answer, s.Count())
		}
		second := step(t, results[1], "review")
		if second.Status != record.StepCached {
			t.Errorf("%q: second run %s, want cached", answer, second.Status)
		}
		for i, r := range results {
			if r.Status != record.Succeeded || r.Output.(map[string]any)["verdict"] != "ok" {
				t.Errorf("%q: run %d: %s %#v %s", answer, i+1, r.Status, r.Output, r.Error)
			}
		}
	}
}

// retry: {max: 3} is the most requests one step sends one model: transient
// failures and guardrail re-asks draw on the same allowance, on the
// primary model and on each fallback.
func TestRetryMaxBoundsRequestsPerModel(t *testing.T) {
	tests := []struct {
		name    string
		replies func(model string, n int) llmtest.Reply
		want    map[string]int
		status  record.Status
	}{
		{name: "always overloaded", replies: func(string, int) llmtest.Reply { return llmtest.Reply{Status: 503} },
			want: map[string]int{"big": 3, "small": 3}, status: record.Failed},
		{name: "always breaks its guardrail", replies: func(string, int) llmtest.Reply { return llmtest.Reply{Text: "short"} },
			want: map[string]int{"big": 3, "small": 3}, status: record.Failed},
		{name: "overloaded, then a broken guardrail, on both models",
			replies: func(model string, n int) llmtest.Reply {
				if n%2 == 1 {
					return llmtest.Reply{Status: 529}
				}
				return llmtest.Reply{Text: "short"}
			},
			want: map[string]int{"big": 3, "small": 3}, status: record.Failed},
		{name: "a good answer on the third request", replies: func(_ string, n int) llmtest.Reply {
			if n < 3 {
				return llmtest.Reply{Status: 500}
			}
			return llmtest.Reply{Text: strings.Repeat("long enough ", 3)}
		}, want: map[string]int{"big": 3}, status: record.Succeeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := map[string]int{}
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				model := r.Body["model"].(string)
				counts[model]++
				return tt.replies(model, counts[model])
			})
			defer s.Close()
			res := runChain(t, `
name: t
steps:
  - id: ask
    model: openai/big
    fallback_models: [openai/small]
    prompt: hi
    retry: {max: 3, delay_ms: 1}
    guardrails: [{type: min_length, value: 20}]
`, nil, WithModels(registryFor(s, nil)))
			if res.Status != tt.status {
				t.Fatalf("status %s, want %s (%s)", res.Status, tt.status, res.Error)
			}
			for model, n := range tt.want {
				if counts[model] != n {
					t.Errorf("%s got %d requests, want %d (all: %v)", model, counts[model], n, counts)
				}
			}
			for model, n := range counts {
				if n > 3 {
					t.Errorf("%s got %d requests, more than retry max 3", model, n)
				}
			}
			if got := step(t, res, "ask").Usage.LLMCalls; got != s.Count() {
				t.Errorf("llm_calls %d, requests %d", got, s.Count())
			}
		})
	}
}

// A cached answer passed the checks its key names: changing a guardrail
// asks the model again rather than serving an answer judged by other
// rules.
func TestChangingAGuardrailMissesTheCache(t *testing.T) {
	s := llmtest.NewFunc(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "a long enough answer"} })
	defer s.Close()
	store := cache.NewMem()
	for i, rule := range []string{"{type: min_length, value: 5}", "{type: min_length, value: 5}", "{type: min_length, value: 6}", "{type: must_contain, value: long}"} {
		src := "name: t\nsteps:\n  - {id: a, model: openai/m, prompt: p, cache: true, guardrails: [" + rule + "]}\n"
		runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
		want := []int{1, 1, 2, 3}[i]
		if s.Count() != want {
			t.Fatalf("after run %d (%s): %d requests, want %d", i+1, rule, s.Count(), want)
		}
	}
}

// The allowance holds for the re-asks of a tool loop's turn and of a
// summary too, and a request the allowance refuses never hides why the
// answer before was refused.
func TestRetryMaxHoldsForToolLoopsAndSummaries(t *testing.T) {
	for _, tt := range []struct{ name, step string }{
		{"tool loop", "tools: [Read]"},
		{"summary", "context_strategy: {facts: summarize}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			asked := map[bool]int{} // by whether the request is a summary
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				summary := strings.HasPrefix(r.LastUserMessage(), "Summarise")
				asked[summary]++
				if asked[summary] <= 2 {
					return llmtest.Reply{Status: 503}
				}
				return llmtest.Reply{Text: "short"}
			})
			defer s.Close()
			res := runChain(t, `
name: t
steps:
  - {id: facts, type: cli, command: echo, args: [the facts], output_var: facts}
  - id: ask
    depends_on: [facts]
    model: openai/big
    prompt: "use {facts}"
    `+tt.step+`
    retry: {max: 3, delay_ms: 1}
    guardrails: [{type: min_length, value: 20}]
`, nil, WithModels(registryFor(s, nil)), WithDir(t.TempDir()))
			// each question (the answer, a summary) has the allowance
			if asked[false] > 3 || asked[true] > 3 {
				t.Errorf("requests %v to the one model: a question asked more than retry max 3 times", asked)
			}
			if res.Status != record.Failed || !strings.Contains(res.Error, "guardrail failed") && !strings.Contains(res.Error, "503") {
				t.Errorf("status %s, error %q", res.Status, res.Error)
			}
		})
	}
}

func TestSpentAllowanceDoesNotHideTheBrokenGuardrail(t *testing.T) {
	replies := []llmtest.Reply{{Status: 503}, {Text: "short"}, {Text: "short"}}
	s := llmtest.New(replies...)
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: ask, model: openai/big, prompt: p, retry: {max: 3, delay_ms: 1}, guardrails: [{type: min_length, value: 20}]}
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Failed || !strings.Contains(res.Error, "guardrail failed: min_length") {
		t.Fatalf("status %s, error %q: want the guardrail named", res.Status, res.Error)
	}
	if s.Count() != 3 {
		t.Errorf("%d requests, want 3", s.Count())
	}
}
