package llm

import (
	"sort"
	"strings"
	"sync"
)

// Price is what a model costs, in US dollars per million tokens, so that
// reports can say what a run spent.
type Price struct {
	Input  float64 `mapstructure:"input" json:"input"`
	Output float64 `mapstructure:"output" json:"output"`
}

// Cost is the price of a call's tokens, in US dollars.
func (p Price) Cost(u Usage) float64 {
	return (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output) / 1e6
}

// listPrices are list prices of widely used models, matched by the
// longest prefix of the model name (after its provider). Config `prices`
// adds to and overrides them; a model matching none has no known cost.
var listPrices = sync.OnceValue(func() map[string]Price {
	// list prices per million tokens (input, output), as the providers
	// publish them for standard requests; cached and batch prices differ
	return map[string]Price{
		"claude-opus-4-5":       {Input: 5, Output: 25},
		"claude-opus-4-1":       {Input: 15, Output: 75},
		"claude-opus-4":         {Input: 15, Output: 75},
		"claude-sonnet-4":       {Input: 3, Output: 15},
		"claude-3-7-sonnet":     {Input: 3, Output: 15},
		"claude-3-5-sonnet":     {Input: 3, Output: 15},
		"claude-haiku-4":        {Input: 1, Output: 5},
		"claude-3-5-haiku":      {Input: 0.8, Output: 4},
		"gpt-5-pro":             {Input: 15, Output: 120},
		"gpt-5":                 {Input: 1.25, Output: 10},
		"gpt-5-mini":            {Input: 0.25, Output: 2},
		"gpt-5-nano":            {Input: 0.05, Output: 0.4},
		"gpt-5.1":               {Input: 1.25, Output: 10},
		"gpt-4o-mini":           {Input: 0.15, Output: 0.6},
		"gpt-4o":                {Input: 2.5, Output: 10},
		"gpt-4.1-nano":          {Input: 0.1, Output: 0.4},
		"gpt-4.1-mini":          {Input: 0.4, Output: 1.6},
		"gpt-4.1":               {Input: 2, Output: 8},
		"o3":                    {Input: 2, Output: 8},
		"o4-mini":               {Input: 1.1, Output: 4.4},
		"o3-mini":               {Input: 1.1, Output: 4.4},
		"gemini-3-pro":          {Input: 2, Output: 12},
		"gemini-2.5-pro":        {Input: 1.25, Output: 10},
		"gemini-2.5-flash":      {Input: 0.3, Output: 2.5},
		"gemini-2.5-flash-lite": {Input: 0.1, Output: 0.4},
		"gemini-2.0-flash":      {Input: 0.1, Output: 0.4},
	}
})

// Prices looks up what models cost: config entries (by provider/model or
// model, exact or as a prefix) before the built-in list prices; models of
// the ollama provider are local and free.
type Prices struct {
	custom map[string]Price
}

// NewPrices makes a lookup with config's prices added.
func NewPrices(custom map[string]Price) *Prices { return &Prices{custom: custom} }

// Of returns the price of a provider/model name, and whether it is known.
func (p *Prices) Of(model string) (Price, bool) {
	if pr, ok := longestPrefix(p.custom, model); ok {
		return pr, true
	}
	provider, name, found := strings.Cut(model, "/")
	if !found {
		name = model
	}
	if pr, ok := longestPrefix(p.custom, name); ok {
		return pr, true
	}
	if provider == "ollama" {
		return Price{}, true
	}
	return longestPrefix(listPrices(), name)
}

func longestPrefix(table map[string]Price, name string) (Price, bool) {
	keys := make([]string, 0, len(table))
	for k := range table {
		if strings.HasPrefix(name, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return Price{}, false
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	return table[keys[0]], true
}
