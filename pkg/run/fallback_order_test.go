package run

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFallbacksAreAskedWhenAnswersKeepBreakingTheChecks: reference 004's
// order holds for answers that break a guardrail or name no keyword, not
// only for transient failures — the primary, its retries, then each
// fallback model with as many, the move announced.
func TestFallbacksAreAskedWhenAnswersKeepBreakingTheChecks(t *testing.T) {
	good := "## Summary: a long enough answer for the rule"
	tests := []struct {
		name      string
		step      string
		answers   map[string]string // by model; the rest answer good
		want      map[string]int    // requests by model
		output    string
		answering string
	}{
		{"retry 2, one fallback", "fallback_models: [anthropic/tiny], retry: 2, guardrails: [{type: min_length, value: 30}]",
			map[string]string{"short": "short"}, map[string]int{"short": 2, "tiny": 1}, good, "anthropic/tiny"},
		{"no retry, two fallbacks, the first also broken", "fallback_models: [anthropic/tiny, openai/third], guardrails: [{type: must_contain, value: '## Summary'}]",
			map[string]string{"short": "no heading", "tiny": "still none"}, map[string]int{"short": 1, "tiny": 1, "third": 1}, good, "openai/third"},
		{"a keyword missed", "fallback_models: [anthropic/tiny], retry: {max: 2, delay_ms: 1}, condition_key: [yes, no]",
			map[string]string{"short": "perhaps"}, map[string]int{"short": 2, "tiny": 1}, "yes", "anthropic/tiny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := map[string]int{}
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				model := r.Body["model"].(string)
				counts[model]++
				if a, ok := tt.answers[model]; ok {
					return llmtest.Reply{Text: a}
				}
				if strings.Contains(tt.step, "condition_key") {
					return llmtest.Reply{Text: "yes"}
				}
				return llmtest.Reply{Text: good}
			})
			defer s.Close()
			rec := &event.Recorder{}
			res := runChain(t, "name: t\nsteps:\n  - {id: b, model: openai/short, prompt: 'write a summary', "+tt.step+", output_var: b}\noutput: b\n",
				nil, WithModels(registryFor(s, nil)), WithEvents(rec))
			sr := step(t, res, "b")
			if res.Status != record.Succeeded || res.Output != tt.output || sr.Model != tt.answering {
				t.Fatalf("%s output %#v model %s: %s", res.Status, res.Output, sr.Model, res.Error)
			}
			if !maps.Equal(counts, tt.want) {
				t.Errorf("requests %v, want %v", counts, tt.want)
			}
			moves := 0
			for _, e := range rec.Events() {
				if e.Type == event.LLMFallback {
					moves++
					if !strings.Contains(e.Error, "is not asked again") {
						t.Errorf("the move does not say why: %q", e.Error)
					}
				}
			}
			if moves != len(tt.want)-1 {
				t.Errorf("%d fallback events, want %d", moves, len(tt.want)-1)
			}
		})
	}
}

// TestATimedOutModelGivesWayToTheFallback: a step whose request outlives
// its timeout_ms asks the fallback model next, after the primary's
// retries, in reference 004's order.
func TestATimedOutModelGivesWayToTheFallback(t *testing.T) {
	for _, tt := range []struct {
		retry string
		slow  int
	}{{"", 1}, {"retry: {max: 2, delay_ms: 1}, ", 2}} {
		counts := map[string]int{}
		s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
			model := r.Body["model"].(string)
			counts[model]++
			if model == "slow" {
				return llmtest.Reply{Text: "late", Delay: 5 * time.Second}
			}
			return llmtest.Reply{Text: "in time"}
		})
		res := runChain(t, "name: t\nsteps:\n  - {id: b, model: openai/slow, fallback_models: [anthropic/quick], "+tt.retry+"timeout_ms: 300, prompt: p, output_var: b}\noutput: b\n",
			nil, WithModels(registryFor(s, nil)))
		s.Close()
		if res.Status != record.Succeeded || res.Output != "in time" || counts["slow"] != tt.slow || counts["quick"] != 1 {
			t.Errorf("%q: %s %v requests %v: %s", tt.retry, res.Status, res.Output, counts, res.Error)
		}
	}
}
