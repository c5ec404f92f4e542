package ask

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// Refused says what of a step's request its target's API refuses, and
// the step's field that asks it: a parameter it does not take, a
// temperature above Anthropic's 1.
func Refused(s *chain.Step, provider string, t llm.Target) (problem, field string) {
	label := provider + "/" + t.Model
	if p := s.Agent().Params; p != nil && t.Kind != "" {
		if bad := ParamsOf(p).Unsupported(t.Kind); len(bad) > 0 {
			return fmt.Sprintf("params: %s does not take %s (the step's model %s); remove them, or pass them under extra: as that API names them", provider, strings.Join(bad, ", "), label), "params"
		}
	}
	if temp := s.Agent().Temperature; temp != nil && *temp > 1 && t.Kind == llm.KindAnthropic {
		return fmt.Sprintf("temperature %v: %s takes 0 to 1 (the step's model %s)", *temp, provider, label), "temperature"
	}
	return "", ""
}
