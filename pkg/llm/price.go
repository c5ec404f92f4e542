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
	// CacheRead and CacheWrite price input tokens read from and written
	// to the provider's prompt cache; 0 prices them as Input.
	CacheRead  float64 `mapstructure:"cache_read" json:"cache_read,omitempty"`
	CacheWrite float64 `mapstructure:"cache_write" json:"cache_write,omitempty"`
}

// Cost is the price of a call's tokens, in US dollars.
func (p Price) Cost(u Usage) float64 {
	read, write := p.CacheRead, p.CacheWrite
	if read == 0 {
		read = p.Input
	}
	if write == 0 {
		write = p.Input
	}
	plain := u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens
	return (float64(plain)*p.Input + float64(u.CacheReadTokens)*read + float64(u.CacheWriteTokens)*write + float64(u.OutputTokens)*p.Output) / 1e6
}

// listPrices are list prices of widely used models, matched by the
// longest prefix of the model name (after its provider). Config `prices`
// adds to and overrides them; a model matching none has no known cost.
var listPrices = sync.OnceValue(func() map[string]Price {
	// list prices per million tokens, as the providers publish them for
	// standard requests: Anthropic's prompt cache costs 1.25 times the
	// input price to write (five-minute entries) and a tenth to read;
	// OpenAI's and Gemini's reads are discounted by family, writes free
	claude := func(in, out float64) Price {
		return Price{Input: in, Output: out, CacheRead: in / 10, CacheWrite: in * 1.25}
	}
	openai := func(in, out, read float64) Price {
		return Price{Input: in, Output: out, CacheRead: read, CacheWrite: in}
	}
	return map[string]Price{
		"claude-opus-4-5":       claude(5, 25),
		"claude-opus-4-1":       claude(15, 75),
		"claude-opus-4":         claude(15, 75),
		"claude-sonnet-4":       claude(3, 15),
		"claude-3-7-sonnet":     claude(3, 15),
		"claude-3-5-sonnet":     claude(3, 15),
		"claude-haiku-4":        claude(1, 5),
		"claude-3-5-haiku":      claude(0.8, 4),
		"gpt-5-pro":             openai(15, 120, 15),
		"gpt-5":                 openai(1.25, 10, 0.125),
		"gpt-5-mini":            openai(0.25, 2, 0.025),
		"gpt-5-nano":            openai(0.05, 0.4, 0.005),
		"gpt-5.1":               openai(1.25, 10, 0.125),
		"gpt-4o-mini":           openai(0.15, 0.6, 0.075),
		"gpt-4o":                openai(2.5, 10, 1.25),
		"gpt-4.1-nano":          openai(0.1, 0.4, 0.025),
		"gpt-4.1-mini":          openai(0.4, 1.6, 0.1),
		"gpt-4.1":               openai(2, 8, 0.5),
		"o3":                    openai(2, 8, 0.5),
		"o4-mini":               openai(1.1, 4.4, 0.275),
		"o3-mini":               openai(1.1, 4.4, 0.55),
		"gemini-3-pro":          openai(2, 12, 0.2),
		"gemini-2.5-pro":        openai(1.25, 10, 0.125),
		"gemini-2.5-flash":      openai(0.3, 2.5, 0.03),
		"gemini-2.5-flash-lite": openai(0.1, 0.4, 0.01),
		"gemini-2.0-flash":      openai(0.1, 0.4, 0.025),
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
