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
		// the models the docs use, each family's longest name winning
		{"openai/gpt-5", true, 11.25},
		{"openai/gpt-5-mini", true, 2.25},
		{"openai/gpt-5-nano-2025-08-07", true, 0.45},
		{"openai/gpt-5-pro", true, 135},
		{"anthropic/claude-opus-4-5-20251101", true, 30},
		{"anthropic/claude-opus-4-1", true, 90},
		{"gemini/gemini-2.5-flash", true, 2.8},
		{"gemini/gemini-2.5-flash-lite", true, 0.5},
		{"gemini/gemini-2.5-pro", true, 11.25},
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
