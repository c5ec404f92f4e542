package cmd

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// grants checks --grant names against the tools a run can call: the
// built-in ones and the chain's own.
func grants(c *chain.Chain, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	for _, n := range names {
		if !slices.Contains(chain.BuiltinTools, n) && c.Tool(n) == nil {
			known := append([]string(nil), chain.BuiltinTools...)
			for _, t := range c.Tools {
				known = append(known, t.Name)
			}
			return nil, usagef("--grant %s: no such tool; tools are %s", n, strings.Join(known, ", "))
		}
		out[n] = true
	}
	return out, nil
}
