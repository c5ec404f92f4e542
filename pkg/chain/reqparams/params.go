package reqparams

import (
	"fmt"
	"math"
	"slices"
)

// Params are an agent step's params: what its model requests carry
// beyond the prompt, temperature and answer cap. Which providers take
// which is the run's to check (the step's model names the provider).
type Params struct {
	Seed             *int64         `yaml:"seed" json:"seed,omitempty"`
	TopP             *float64       `yaml:"top_p" json:"top_p,omitempty"`
	Stop             []string       `yaml:"stop" json:"stop,omitempty"`
	PresencePenalty  *float64       `yaml:"presence_penalty" json:"presence_penalty,omitempty"`
	FrequencyPenalty *float64       `yaml:"frequency_penalty" json:"frequency_penalty,omitempty"`
	ReasoningEffort  string         `yaml:"reasoning_effort" json:"reasoning_effort,omitempty"`
	MaxOutputTokens  *int           `yaml:"max_output_tokens" json:"max_output_tokens,omitempty"`
	Extra            map[string]any `yaml:"extra" json:"extra,omitempty"`
}

// ReasoningEfforts are the values reasoning_effort takes.
var ReasoningEfforts = []string{"minimal", "low", "medium", "high"}

// Problems are the values out of range, each said as a sentence.
func (p *Params) Problems() []string {
	var out []string
	inRange := func(name string, v *float64, lo, hi float64) {
		if v != nil && !(*v >= lo && *v <= hi) {
			out = append(out, fmt.Sprintf("%s %v is not between %g and %g", name, *v, lo, hi))
		}
	}
	inRange("top_p", p.TopP, 0, 1)
	inRange("presence_penalty", p.PresencePenalty, -2, 2)
	inRange("frequency_penalty", p.FrequencyPenalty, -2, 2)
	if len(p.Stop) > 4 {
		out = append(out, fmt.Sprintf("stop has %d sequences; providers take at most 4", len(p.Stop)))
	}
	if slices.Contains(p.Stop, "") {
		out = append(out, "stop holds an empty sequence")
	}
	if p.ReasoningEffort != "" && !slices.Contains(ReasoningEfforts, p.ReasoningEffort) {
		out = append(out, fmt.Sprintf("reasoning_effort %q is not one of %v", p.ReasoningEffort, ReasoningEfforts))
	}
	if p.MaxOutputTokens != nil && (*p.MaxOutputTokens < 1 || *p.MaxOutputTokens > math.MaxInt32) {
		out = append(out, fmt.Sprintf("max_output_tokens %d: want 1 or more", *p.MaxOutputTokens))
	}
	for _, k := range []string{"model", "messages", "stream", "tools"} {
		if _, ok := p.Extra[k]; ok {
			out = append(out, fmt.Sprintf("extra.%s would replace what chainrun sends (set it with the step's own keys)", k))
		}
	}
	return out
}
