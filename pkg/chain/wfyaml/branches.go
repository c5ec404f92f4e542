package wfyaml

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// DecodeBranches reads a task state's transition: {on_failure, branches},
// reporting a value of the wrong shape without stopping the file's other
// checks. It is exported because each front-end whose states move by
// branches (a workflows: file's, a contenox task chain's) reads them the
// same way, into the same model, with the same messages.
func DecodeBranches(d *yamlpos.Diags, s *chain.State, v *yaml.Node, prefix string) {
	prefix += "transition: "
	if v.Kind != yaml.MappingNode {
		d.LooseErrorf(yamlpos.Of(v), "%stransition holds branches: a list of {operator, when, goto}", prefix)
		s.SetBranchesUnread()
		return
	}
	yamlpos.CheckKeys(d, v, prefix, yamlpos.KeysOf[chain.BranchTransition]())
	if on := yamlpos.ValueOf(v, "on_failure"); on != nil && on.Value != "" {
		s.OnFailure = on.Value
		s.FieldPos["on_failure"] = yamlpos.Of(on)
	}
	list := yamlpos.ValueOf(v, "branches")
	if list == nil {
		d.LooseErrorf(yamlpos.Of(v), "%sbranches are required", prefix)
		s.SetBranchesUnread()
		return
	}
	yamlpos.EachItem(d, list, prefix+"branches must be a list of {operator, when, goto}", prefix+"a branch is a mapping with operator, when and goto", func(_ int, n *yaml.Node) {
		yamlpos.CheckKeys(d, n, prefix+"branch: ", yamlpos.KeysOf[chain.Branch]())
		if cn := yamlpos.ValueOf(n, "compose"); cn != nil {
			yamlpos.CheckKeys(d, yamlpos.Deref(cn), prefix+"compose: ", yamlpos.KeysOf[chain.Compose]())
		}
		b := &chain.Branch{Pos: yamlpos.Of(n)}
		// unknown keys were reported above, with suggestions
		if err := n.Load(b); err != nil {
			// the branch is kept as far as it was read: the state's
			// other checks run in the same pass
			d.TypeError(err, n, prefix+"branch: ")
		}
		s.Branches = append(s.Branches, b)
	})
}
