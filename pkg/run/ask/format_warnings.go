package ask

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// FormatWarnings says, for validate, which json_schema guardrails go to
// the provider non-strict: their schema does not meet structured outputs'
// strict rules, so a provider may answer outside it and the guardrail's
// check after the answer (a re-ask) is what holds it.
func FormatWarnings(c *chain.Chain) []chain.Diagnostic {
	var out []chain.Diagnostic
	for _, s := range c.Steps {
		if s.Kind.Deterministic() {
			continue
		}
		for _, g := range s.Guardrails {
			schema, ok := g.Value.(map[string]any)
			if g.Type != "json_schema" || !ok || llm.StrictAllowed(schema) {
				continue
			}
			pos := g.Pos
			if pos.Line == 0 {
				pos = s.At("guardrails")
			}
			out = append(out, chain.Diagnostic{File: c.File, Pos: pos, Warning: true,
				Message: fmt.Sprintf("step %q: json_schema is sent to the provider non-strict: strict structured outputs need every object to list all its properties under required and to set additionalProperties: false", s.ID)})
		}
	}
	return out
}
