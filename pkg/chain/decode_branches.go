package chain

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// decodeBranches reads a task state's transition: {on_failure, branches},
// reporting a value of the wrong shape without stopping the file's other
// checks.
func decodeBranches(d *yamlpos.Diags, s *State, v *yaml.Node, prefix string) {
	prefix += "transition: "
	if v.Kind != yaml.MappingNode {
		d.LooseErrorf(yamlpos.Of(v), "%stransition holds branches: a list of {operator, when, goto}", prefix)
		s.branchesUnread = true
		return
	}
	yamlpos.CheckKeys(d, v, prefix, yamlpos.KeysOf[branchTransition]())
	if on := yamlpos.ValueOf(v, "on_failure"); on != nil && on.Value != "" {
		s.OnFailure = on.Value
		s.FieldPos["on_failure"] = yamlpos.Of(on)
	}
	list := yamlpos.ValueOf(v, "branches")
	if list == nil {
		d.LooseErrorf(yamlpos.Of(v), "%sbranches are required", prefix)
		s.branchesUnread = true
		return
	}
	eachItem(d, list, prefix+"branches must be a list of {operator, when, goto}", prefix+"a branch is a mapping with operator, when and goto", func(_ int, n *yaml.Node) {
		yamlpos.CheckKeys(d, n, prefix+"branch: ", yamlpos.KeysOf[Branch]())
		if cn := yamlpos.ValueOf(n, "compose"); cn != nil {
			yamlpos.CheckKeys(d, yamlpos.Deref(cn), prefix+"compose: ", yamlpos.KeysOf[Compose]())
		}
		b := &Branch{Pos: yamlpos.Of(n)}
		// unknown keys were reported above, with suggestions
		if err := n.Load(b); err != nil {
			// the branch is kept as far as it was read: the state's
			// other checks run in the same pass
			d.TypeError(err, n, prefix+"branch: ")
		}
		s.Branches = append(s.Branches, b)
	})
}
