package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestADeclinedAnswerFailsTheStepAndIsNotCached: a refusal or a content
// filter's stop, in either wire format, fails the step with a message that
// says so (and what the model said), its finish reason named; with cache
// on, the next run asks again.
func TestADeclinedAnswerFailsTheStepAndIsNotCached(t *testing.T) {
	tests := []struct {
		name, model string
		reply       llmtest.Reply
		finish      string
		want        string
	}{
		{"openai refusal", "openai/gpt-x", llmtest.Reply{Refusal: "I won't write malware."}, "refusal", "refused to answer: I won't write malware."},
		{"anthropic refusal", "anthropic/claude-x", llmtest.Reply{Text: "Hmm.", Refusal: "Unsafe request."}, "refusal", "Hmm. Unsafe request."},
		{"openai content filter", "openai/gpt-y", llmtest.Reply{Text: "The first half of", Finish: "content_filter"}, "content-filter", "content filter stopped the answer after 17 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(tt.reply)
			defer s.Close()
			store := cache.Open(t.TempDir())
			src := "name: t\nsteps:\n  - {id: ask, model: " + tt.model + ", prompt: 'tell me', cache: true, output_var: a}\noutput: a\n"
			for run := 1; run <= 2; run++ {
				res := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
				sr := step(t, res, "ask")
				if res.Status != record.Failed || sr.Status != record.StepFailed || sr.FinishReason != tt.finish || !strings.Contains(sr.Error, tt.want) {
					t.Fatalf("run %d: %s %s finish %q error %q", run, res.Status, sr.Status, sr.FinishReason, sr.Error)
				}
				if sr.Usage == nil || sr.Usage.LLMCalls != 1 {
					t.Errorf("run %d: usage %+v", run, sr.Usage)
				}
			}
			if s.Count() != 2 {
				t.Errorf("the declined answer was served from the cache: %d requests in two runs", s.Count())
			}
		})
	}
}

// TestADeclinedAnswerGoesToTheFallbackModel: the model that refused is not
// asked again; the fallback's answer is the step's, and is cached.
func TestADeclinedAnswerGoesToTheFallbackModel(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			return llmtest.Reply{Refusal: "Not allowed."}
		}
		return llmtest.Reply{Text: "the answer"}
	})
	defer s.Close()
	store := cache.Open(t.TempDir())
	src := "name: t\nsteps:\n  - {id: ask, model: openai/gpt-x, fallback_models: [anthropic/claude-x], retry: 3, prompt: 'tell me', cache: true, output_var: a}\noutput: a\n"
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
	if res.Status != record.Succeeded || res.Output != "the answer" || s.Count() != 2 || step(t, res, "ask").Model != "anthropic/claude-x" {
		t.Fatalf("%s %v requests %d model %s: %s", res.Status, res.Output, s.Count(), step(t, res, "ask").Model, res.Error)
	}
	res = runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
	if step(t, res, "ask").Status != record.StepCached || s.Count() != 2 {
		t.Errorf("the fallback's answer was not cached: %s, %d requests", step(t, res, "ask").Status, s.Count())
	}
}

// TestAModelThatDeclinedIsNotAskedAgainOnAReAsk: the primary refused, the
// fallback's answer broke a guardrail: the re-ask goes to the fallback,
// not back to the model that refused.
func TestAModelThatDeclinedIsNotAskedAgainOnAReAsk(t *testing.T) {
	for _, primary := range []llmtest.Reply{{Refusal: "No."}, {Status: 503, Header: map[string]string{"X-Should-Retry": "false"}}} {
		counts := map[string]int{}
		s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
			model := r.Body["model"].(string)
			counts[model]++
			if model == "first" {
				return primary
			}
			if counts[model] == 1 {
				return llmtest.Reply{Text: "short"}
			}
			return llmtest.Reply{Text: "a long enough answer at last"}
		})
		res := runChain(t, "name: t\nsteps:\n  - {id: b, model: openai/first, fallback_models: [anthropic/second], retry: {max: 2, delay_ms: 1}, guardrails: [{type: min_length, value: 20}], prompt: p, output_var: b}\noutput: b\n",
			nil, WithModels(registryFor(s, nil)))
		s.Close()
		if res.Status != record.Succeeded || counts["first"] != 1 || counts["second"] != 2 {
			t.Errorf("%+v: %s, requests %v: %s", primary, res.Status, counts, res.Error)
		}
	}
}
