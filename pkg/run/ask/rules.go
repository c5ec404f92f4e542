package ask

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
)

// Rules is a step's guardrails as guard rules: its guardrails list, then
// the legacy output_* fields, in the order messages report them. A model
// step's answer and any step's output are checked against the same list.
func Rules(s *chain.Step) []guard.Rule {
	var rules []guard.Rule
	c := s.C()
	for i, g := range s.Guardrails {
		r := guard.Rule{Type: g.Type, Value: g.Value}
		switch g.Type {
		case "regex_match":
			r.Pattern = c.Patterns[i]
		case "json_schema":
			r.Schema = c.Schemas[i]
		}
		rules = append(rules, r)
	}
	for _, v := range s.OutputMustContain {
		rules = append(rules, guard.Rule{Type: "output_must_contain", Value: v})
	}
	for _, v := range s.OutputMustNotContain {
		rules = append(rules, guard.Rule{Type: "output_must_not_contain", Value: v})
	}
	if s.OutputMaxLength > 0 {
		rules = append(rules, guard.Rule{Type: "output_max_length", Value: s.OutputMaxLength})
	}
	if s.OutputSchema == "json" {
		rules = append(rules, guard.Rule{Type: "output_schema"})
	}
	return rules
}
