package wfyaml

import (
	"fmt"
	"reflect"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	yaml "go.yaml.in/yaml/v4"
)

// dialectKey hands a key chainrun's own reader does not handle to the
// dialect's reader (take, when the dialect has one), reporting whether
// it took the key. Without one, a key of dst that only a dialect reads
// (its field tagged dialect:"peer", declared for the schema and for
// did-you-mean) is refused as unknown, as chainrun's own reading does not
// know it; hint ends the message as the walker's does.
func dialectKey(d *yamlpos.Diags, dst any, k *yaml.Node, prefix, hint string, has bool, take func() bool) bool {
	if has {
		return take()
	}
	f := yamlpos.FieldsOf(reflect.TypeOf(dst).Elem()).ByKey[k.Value]
	if f == nil || f.Tag.Get("dialect") != "peer" {
		return false
	}
	d.LooseErrorf(yamlpos.Of(k), "%sunknown field %q%s", prefix, k.Value, hint)
	return true
}

// branchKeys are the keys of a transition branch.
type branchKeys struct {
	When   any    `yaml:"when"`
	Target string `yaml:"target"`
}

// decodeTransitionBranches reads a transition's branches: a list of
// {when: GUARD, target: STATE}.
func decodeTransitionBranches(d *yamlpos.Diags, v *yaml.Node, prefix string) []*chain.TransitionBranch {
	prefix += "branches: "
	var out []*chain.TransitionBranch
	yamlpos.EachItem(d, v, prefix+"a list of {when: {kind: expr, expr: ...}, target: STATE}", prefix+"a branch is {when, target}", func(i int, n *yaml.Node) {
		yamlpos.CheckKeys(d, n, prefix, yamlpos.KeysOf[branchKeys]())
		b := &chain.TransitionBranch{Pos: yamlpos.Of(n)}
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

// executorCandidates reads the fallbacks of a transition's or an
// onEnter's executor e, each named after it as its owner (transition,
// state) names it (transition "go" fallback 1).
func executorCandidates(d *yamlpos.Diags, c *chain.Chain, owner string, e *chain.Step) func(n *yaml.Node, i int, prefix string) *chain.Step {
	return func(n *yaml.Node, i int, prefix string) *chain.Step {
		return decodeExecutor(d, c, n, owner, e.ID, fmt.Sprintf("fallback %d", i), prefix)
	}
}
