package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestAnAnswerThatPassedAfterAReAskIsCached: the answer a re-ask brings,
// once it passes the step's checks, is the question's answer: the next
// run is served it from the cache without a request.
func TestAnAnswerThatPassedAfterAReAskIsCached(t *testing.T) {
	tests := []struct {
		name, step  string
		first, then string
		want        string
	}{
		{"min_length", "guardrails: [{type: min_length, value: 30}]",
			"too short", "## Summary of a long enough answer", "## Summary of a long enough answer"},
		{"condition_key", "condition_key: [approve, reject]",
			"I would rather not say", "reject", "reject"},
		{"json_valid", "output_schema: json, guardrails: [{type: json_valid}]",
			"{not json", "```json\n{\"ok\": true}\n```", `"ok":true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(llmtest.Reply{Text: tt.first}, llmtest.Reply{Text: tt.then})
			defer s.Close()
			store := cache.Open(t.TempDir())
			src := "name: t\nsteps:\n  - {id: ask, model: anthropic/m, prompt: 'answer me', retry: 3, cache: true, " + tt.step + ", output_var: a}\noutput: a\n"
			first := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
			if first.Status != record.Succeeded || s.Count() != 2 {
				t.Fatalf("first run: %s after %d requests: %s", first.Status, s.Count(), first.Error)
			}
			second := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
			sr := step(t, second, "ask")
			if sr.Status != record.StepCached || s.Count() != 2 || !strings.Contains(asJSON(t, second.Output), tt.want) {
				t.Fatalf("second run: %s, %d requests in all, output %v", sr.Status, s.Count(), second.Output)
			}
		})
	}
}
