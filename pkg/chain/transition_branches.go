package chain

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// TransitionBranch is one of a transition's branches (mcp-flowgate):
// once the executor ran and the output mappings wrote the context, the
// first branch whose guard holds picks the target instead of the
// transition's own, which stays the fallback.
type TransitionBranch struct {
	When   *Guard
	Target string
	Pos    Pos
}

// branchKeys are the keys of a transition branch.
type branchKeys struct {
	When   any    `yaml:"when"`
	Target string `yaml:"target"`
}

// decodeTransitionBranches reads a transition's branches: a list of
// {when: GUARD, target: STATE}.
func decodeTransitionBranches(d *yamlpos.Diags, v *yaml.Node, prefix string) []*TransitionBranch {
	prefix += "branches: "
	var out []*TransitionBranch
	eachItem(d, v, prefix+"a list of {when: {kind: expr, expr: ...}, target: STATE}", prefix+"a branch is {when, target}", func(i int, n *yaml.Node) {
		yamlpos.CheckKeys(d, n, prefix, yamlpos.KeysOf[branchKeys]())
		b := &TransitionBranch{Pos: yamlpos.Of(n)}
		if t := yamlpos.ValueOf(n, "target"); t != nil {
			b.Target = yamlpos.Deref(t).Value
		}
		when := yamlpos.ValueOf(n, "when")
		if when == nil || b.Target == "" {
			d.Errorf(yamlpos.Of(n), "%sbranch %d needs when (a guard) and target (a state)", prefix, i+1)
			return
		}
		b.When = decodeGuard(d, yamlpos.Deref(when), prefix+"when")
		if b.When != nil {
			out = append(out, b)
		}
	})
	return out
}
