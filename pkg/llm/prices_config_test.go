package llm

import (
	"math"
	"strings"
	"testing"
)

// Config prices are numbers of zero or more under the four known keys;
// anything else is refused naming the model and the key, since a negative
// price would hide a run's cost from its budget and a misspelt key would
// price its tokens at nothing.
func TestPricesFrom(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  any
		err  string
	}{
		{"whole", map[string]any{"openai/x": map[string]any{"input": 1, "output": 2.5, "cache_read": 0.1, "cache_write": uint64(3)}}, ""},
		{"none", nil, ""},
		{"negative", map[string]any{"openai/x": map[string]any{"input": -1, "output": 1}}, "config prices.openai/x: input -1: want a number"},
		{"nan", map[string]any{"openai/x": map[string]any{"input": 1, "output": math.NaN()}}, "config prices.openai/x: output NaN: want a number"},
		{"infinite", map[string]any{"openai/x": map[string]any{"input": math.Inf(1)}}, "input +Inf: want a number"},
		{"text", map[string]any{"openai/x": map[string]any{"input": "1"}}, `input "1": want a number`},
		{"misspelt", map[string]any{"openai/x": map[string]any{"inptu": 1}}, `unknown key "inptu" (keys: cache_read, cache_write, input, output)`},
		{"not a mapping", map[string]any{"openai/x": 3}, "config prices.openai/x: want a mapping"},
		{"a list", []any{1}, "config prices: want a mapping"},
	} {
		p, err := PricesFrom(tc.raw)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
		if p != nil {
			t.Errorf("%s: prices given with an error", tc.name)
		}
	}
	p, _ := PricesFrom(map[string]any{"openai/x": map[string]any{"input": 1, "output": 2.5, "cache_read": 0.1}})
	if got, ok := p.Of("openai/x"); !ok || got != (Price{Input: 1, Output: 2.5, CacheRead: 0.1}) {
		t.Errorf("price %+v %v", got, ok)
	}
}
