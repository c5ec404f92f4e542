package ask

import (
	"github.com/chainrun/chainrun/pkg/chain/reqparams"
	"github.com/chainrun/chainrun/pkg/llm"
)

// ParamsOf is a step's params as its requests carry them (what the run
// checks against the provider, and what the answer cache keys on).
func ParamsOf(p *reqparams.Params) llm.Params {
	if p == nil {
		return llm.Params{}
	}
	return llm.Params{Seed: p.Seed, TopP: p.TopP, Stop: p.Stop, PresencePenalty: p.PresencePenalty,
		FrequencyPenalty: p.FrequencyPenalty, ReasoningEffort: p.ReasoningEffort, Extra: p.Extra}
}
