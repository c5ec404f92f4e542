package llm

import (
	"math"
	"testing"
)

func TestPrices(t *testing.T) {
	p := NewPrices(map[string]Price{"openai/gpt-4o-mini": {Input: 1, Output: 2}, "my-model": {Input: 5, Output: 5}})
	cases := []struct {
		model string
		known bool
		cost  float64 // of 1M input and 1M output tokens
	}{
		{"anthropic/claude-sonnet-4-6", true, 18},
		{"anthropic/claude-haiku-4-5", true, 6},
		{"openai/gpt-4o", true, 12.5},
		{"openai/gpt-4o-mini", true, 3},   // config beats the list
		{"azure/gpt-4o-mini", true, 0.75}, // list, by model name
		{"openai/gpt-4.1-mini-2025", true, 2},
		{"local/my-model-7b", true, 10},
		{"ollama/llama3.2", true, 0},
		{"mystery/thing", false, 0},
	}
	for _, tc := range cases {
		pr, ok := p.Of(tc.model)
		if ok != tc.known {
			t.Errorf("%s known %v", tc.model, ok)
			continue
		}
		if got := pr.Cost(Usage{InputTokens: 1e6, OutputTokens: 1e6}); math.Abs(got-tc.cost) > 1e-9 {
			t.Errorf("%s costs %v, want %v", tc.model, got, tc.cost)
		}
	}
}
