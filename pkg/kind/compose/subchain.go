package compose

import "github.com/chainrun/chainrun/pkg/chain"

import "fmt"

// subchainKind is OCC's `type: subchain`, a chain step under another
// name: chain names the chain, inputs (a mapping) are its with. It is
// checked as written and then becomes a chain step.
func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindSubchain,
		Order:   180,
		Also:    []string{"chain", "with", "inputs", "prompt"},
		Ignored: []string{"model"},
		Check: func(v chain.Checker, s *chain.Step) {
			if s.Inputs().Inputs != nil {
				m, ok := s.Inputs().Inputs.(map[string]any)
				if !ok {
					v.Errorf(s.At("inputs"), "%s: a subchain's inputs are a mapping: the called chain's input names and their values", s.Subject())
				}
				if chain.Call(s).With != nil {
					v.Errorf(s.At("inputs"), "%s: set inputs or with, not both", s.Subject())
				}
				chain.Own[chain.CallFields](s).With = map[string]string{}
				for k, x := range m {
					chain.Own[chain.CallFields](s).With[k] = textOfYAML(x)
				}
				chain.Own[chain.CallFields](s).SetWithKey("inputs")
			}
			s.Kind = chain.KindChain
			checkCall(v, s)
		},
	})
}

// textOfYAML is a YAML scalar as the text an input takes.
func textOfYAML(x any) string {
	if str, ok := x.(string); ok {
		return str
	}
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}
