package ask

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
)

// TestDecodeParams: a model alias's params follow a step's rules — names,
// types and ranges — and come out as its requests carry them.
func TestDecodeParams(t *testing.T) {
	p, err := DecodeParams(map[string]any{"seed": 7, "top_p": 0.25, "stop": []any{"END"}, "reasoning_effort": "high",
		"max_output_tokens": 900, "extra": map[string]any{"service_tier": "flex"}})
	if err != nil || *p.Seed != 7 || *p.TopP != 0.25 || p.Stop[0] != "END" || p.ReasoningEffort != "high" || p.MaxOutputTokens != 900 || p.Extra["service_tier"] != "flex" {
		t.Fatalf("%+v %v", p, err)
	}
	for want, raw := range map[string]any{
		`unknown parameter "topp" (did you mean top_p?)`:   map[string]any{"topp": 0.5},
		`seed: want int64, not string`:                     map[string]any{"seed": "seven"},
		`presence_penalty 3 is not between -2 and 2`:       map[string]any{"presence_penalty": 3},
		`reasoning_effort "max" is not one of`:             map[string]any{"reasoning_effort": "max"},
		`extra.messages would replace what chainrun sends`: map[string]any{"extra": map[string]any{"messages": []any{}}},
		`want a mapping of parameters (seed, top_p`:        []any{"seed"},
	} {
		if _, err := DecodeParams(raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want %q", raw, err, want)
		}
	}
}

// TestLabelsKeyAliasParams: two aliases of one model with different
// params never share cached answers; an alias without params keys as
// its model does.
func TestLabelsKeyAliasParams(t *testing.T) {
	seed := int64(1)
	p := llm.NewOpenAI("gw", "http://127.0.0.1:1/v1", "", nil)
	plain := Labels([]llm.Target{{Provider: p, Model: "m"}})
	seeded := Labels([]llm.Target{{Provider: p, Model: "m", Params: llm.Params{Seed: &seed}}})
	if plain[0] != "gw/m" || seeded[0] == plain[0] || !strings.Contains(seeded[0], `"seed":1`) {
		t.Errorf("%v %v", plain, seeded)
	}
}
