package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// RerunSet is the steps a resume may run again although they started
// (resume --rerun): each must be a step or transition of c, or a step of a
// chain a chain step calls (CALLER/STEP). A name of nothing is a
// response.RerunNameError.
func RerunSet(c *chain.Chain, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		caller, nested := ownerOf(id)
		if c.Step(id) == nil && (!nested || c.Step(caller) == nil || !holdsSaved(c.Step(caller))) {
			return nil, &response.RerunNameError{Chain: c.Name, Step: id}
		}
		out[id] = true
	}
	return out, nil
}
