package chain

import yaml "go.yaml.in/yaml/v4"

// decodeBranches reads a task state's transition: {on_failure, branches},
// reporting a value of the wrong shape without stopping the file's other
// checks.
func decodeBranches(d *diags, s *State, v *yaml.Node, prefix string) {
	prefix += "transition: "
	if v.Kind != yaml.MappingNode {
		d.looseErrorf(posOf(v), "%stransition holds branches: a list of {operator, when, goto}", prefix)
		s.branchesUnread = true
		return
	}
	checkKeys(d, v, prefix, keysOf[branchTransition]())
	if on := valueOf(v, "on_failure"); on != nil && on.Value != "" {
		s.OnFailure = on.Value
		s.FieldPos["on_failure"] = posOf(on)
	}
	list := valueOf(v, "branches")
	if list == nil {
		d.looseErrorf(posOf(v), "%sbranches are required", prefix)
		s.branchesUnread = true
		return
	}
	eachItem(d, list, prefix+"branches must be a list of {operator, when, goto}", prefix+"a branch is a mapping with operator, when and goto", func(_ int, n *yaml.Node) {
		checkKeys(d, n, prefix+"branch: ", keysOf[Branch]())
		if cn := valueOf(n, "compose"); cn != nil {
			checkKeys(d, deref(cn), prefix+"compose: ", keysOf[Compose]())
		}
		b := &Branch{Pos: posOf(n)}
		// unknown keys were reported above, with suggestions
		if err := n.Load(b); err != nil {
			// the branch is kept as far as it was read: the state's
			// other checks run in the same pass
			d.typeError(err, n, prefix+"branch: ")
		}
		s.Branches = append(s.Branches, b)
	})
}
