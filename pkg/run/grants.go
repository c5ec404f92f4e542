package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Grants checks --grant names against the tools a run of c can call (the
// built-in ones and the chain's own) and returns them as a set; nil when
// none is given.
func Grants(c *chain.Chain, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	for _, n := range names {
		if !slices.Contains(chain.BuiltinTools, n) && c.Tool(n) == nil {
			return nil, &InputError{Chain: c.Name, Msg: fmt.Sprintf("--grant %s: no such tool%s; tools are %s", n, chain.DidYouMean(n, Tools(c)), strings.Join(Tools(c), ", "))}
		}
		out[n] = true
	}
	return out, nil
}

// Tools are the tools an agent step of c can be granted: the built-in
// ones, then the chain's own (none for a nil chain).
func Tools(c *chain.Chain) []string {
	out := slices.Clone(chain.BuiltinTools)
	if c != nil {
		for _, t := range c.Tools {
			out = append(out, t.Name)
		}
	}
	return out
}
