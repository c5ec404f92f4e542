package wfyaml

import (
	"fmt"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	yaml "go.yaml.in/yaml/v4"
)

// capabilityRef is one entry of an mcp-flowgate file's top-level
// capabilities: registry, flattened along its wraps: chain as
// mcp-flowgate's config.rs flattens it: the executor (its own, else the
// wrapped one's), the guards (the wrapped one's first), the reliability
// and inputSchema (its own, else the wrapped one's).
type capabilityRef struct {
	executor, reliability, inputSchema *yaml.Node
	guards                             []*yaml.Node
}

// capabilityRefs resolves the executors a workflow file gives as
// {capability: NAME}: mcp-flowgate replaces each, before anything else
// reads the file, with the executor of capabilities.NAME, stacking that
// capability's guards before the transition's own and giving the
// transition its reliability and inputSchema where it has none. The
// rewrite is made on the file's nodes, so every later message points at
// the capability's own lines.
type capabilityRefs struct {
	d         *yamlpos.Diags
	registry  *yaml.Node // the capabilities: mapping, or nil
	flattened map[string]*capabilityRef
	resolving map[string]bool
	// seen holds the nodes walked: an anchored one that aliases repeat
	// is walked once, so no nesting of aliases multiplies the walk
	seen map[*yaml.Node]bool
}

// resolveCapabilityRefs rewrites every {capability: NAME} executor under
// workflows against the file's capabilities: registry (nil when the file
// has none); a name the registry lacks is refused, naming it.
func resolveCapabilityRefs(d *yamlpos.Diags, registry, workflows *yaml.Node) {
	if registry != nil && yamlpos.Deref(registry).Kind != yaml.MappingNode {
		registry = nil
	}
	r := &capabilityRefs{d: d, registry: yamlpos.Deref(registry), flattened: map[string]*capabilityRef{}, resolving: map[string]bool{}, seen: map[*yaml.Node]bool{}}
	r.rewrite(workflows, "workflows", "")
}

// rewrite walks n, whose key was under (workflows, states, transitions…);
// prefix names where n is, for messages.
func (r *capabilityRefs) rewrite(n *yaml.Node, under, prefix string) {
	n = yamlpos.Deref(n)
	if n == nil || r.seen[n] {
		return
	}
	r.seen[n] = true
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			r.rewrite(c, "", prefix)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, yamlpos.Deref(n.Content[i+1])
			p := prefix
			switch under {
			case "workflows":
				p = "workflow " + chain.Quote(k) + ": "
			case "states":
				p = "state " + chain.Quote(k) + ": "
			case "transitions":
				p += "transition " + chain.Quote(k) + ": "
			default:
				if k == "onEnter" {
					p += "onEnter: "
				}
			}
			if v.Kind == yaml.MappingNode {
				r.replaceExecutor(v, under == "transitions", p)
			}
			if under == "fallback" && k == "executors" && v.Kind == yaml.SequenceNode {
				r.replaceCandidates(v, p+"reliability: fallback: ")
			}
			r.rewrite(v, k, p)
		}
	}
}

// replaceExecutor rewrites m's executor when it names a capability; a
// transition (asTransition) also takes the capability's guards,
// reliability and inputSchema, anything else its reliability.
func (r *capabilityRefs) replaceExecutor(m *yaml.Node, asTransition bool, where string) {
	ex := yamlpos.Deref(yamlpos.ValueOf(m, "executor"))
	if ex == nil || ex.Kind != yaml.MappingNode {
		return
	}
	nameNode := yamlpos.ValueOf(ex, "capability")
	if nameNode == nil {
		return
	}
	at := yamlpos.Of(nameNode)
	prefix := where + "executor: capability " + chain.Quote(nameNode.Value)
	if other := otherKeys(ex, "capability"); len(other) > 0 {
		r.d.Warnf(yamlpos.Of(ex), "%s replaces this executor whole, as mcp-flowgate does: its %s are not read", prefix, chain.OrList(other))
	}
	c := r.flatten(nameNode.Value, at, prefix)
	if c == nil {
		// refused above; the transition is read without it, so the
		// reference is not reported a second time as an unknown field
		dropKey(m, "executor")
		return
	}
	setValue(m, "executor", copyNode(c.executor))
	if yamlpos.ValueOf(m, "reliability") == nil && c.reliability != nil {
		setValue(m, "reliability", copyNode(c.reliability))
	}
	if !asTransition {
		if len(c.guards) > 0 || c.inputSchema != nil {
			r.d.Warnf(at, "%s: its guards and inputSchema apply to a transition that names it, not here", prefix)
		}
		return
	}
	if yamlpos.ValueOf(m, "inputSchema") == nil && c.inputSchema != nil {
		setValue(m, "inputSchema", copyNode(c.inputSchema))
	}
	if len(c.guards) == 0 {
		return
	}
	// capability guards first, then the transition's own: all must pass
	guards := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: at.Line, Column: at.Col}
	for _, g := range c.guards {
		guards.Content = append(guards.Content, copyNode(g))
	}
	if own := yamlpos.Deref(yamlpos.ValueOf(m, "guards")); own != nil && own.Kind == yaml.SequenceNode {
		guards.Content = append(guards.Content, own.Content...)
	}
	setValue(m, "guards", guards)
}

// replaceCandidates rewrites each reliability.fallback executor that
// names a capability to that capability's executor: only the executor
// is taken (the candidate runs under the transition's guards and
// policy). mcp-flowgate's rewrite reaches only executor: values, so its
// runtime skips such a candidate as a kind it does not know; chainrun
// runs what the reference names, and says so.
func (r *capabilityRefs) replaceCandidates(list *yaml.Node, where string) {
	for i, n := range list.Content {
		ex := yamlpos.Deref(n)
		nameNode := yamlpos.ValueOf(ex, "capability")
		if ex.Kind != yaml.MappingNode || nameNode == nil {
			continue
		}
		prefix := fmt.Sprintf("%sexecutors[%d]: capability %q", where, i, nameNode.Value)
		c := r.flatten(nameNode.Value, yamlpos.Of(nameNode), prefix)
		if c == nil {
			// refused above: read as a noop, so nothing else is said of it
			list.Content[i] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: ex.Line, Column: ex.Column, Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "kind"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "noop"}}}
			continue
		}
		r.d.Warnf(yamlpos.Of(nameNode), "%s runs that capability's executor; mcp-flowgate (at 443aa7a) resolves {capability:} only as an executor: value and skips this candidate as an unknown kind", prefix)
		list.Content[i] = copyNode(c.executor)
	}
}

// flatten is the capability name, its wraps: chain resolved; nil (and
// an error naming what is missing) when it is not in the registry, has
// neither executor nor wraps, or wraps itself round.
func (r *capabilityRefs) flatten(name string, at chain.Pos, prefix string) *capabilityRef {
	if c, ok := r.flattened[name]; ok {
		return c
	}
	var def *yaml.Node
	if r.registry != nil {
		def = yamlpos.Deref(yamlpos.ValueOf(r.registry, name))
	}
	if def == nil {
		var names []string
		if r.registry != nil {
			for i := 0; i+1 < len(r.registry.Content); i += 2 {
				names = append(names, r.registry.Content[i].Value)
			}
		}
		r.d.Errorf(at, "%s is not in this file's capabilities: mcp-flowgate runs {capability: NAME} as the executor of capabilities.NAME, declared in the same file%s", prefix, chain.DidYouMean(name, names))
		return nil
	}
	if def.Kind != yaml.MappingNode {
		r.d.Errorf(yamlpos.Of(def), "capabilities: %q: a capability is a mapping with an executor (or wraps)", name)
		return nil
	}
	if r.resolving[name] {
		r.d.Errorf(yamlpos.Of(def), "capabilities: %q: wraps itself round (a wraps: cycle)", name)
		return nil
	}
	r.resolving[name] = true
	defer delete(r.resolving, name)
	c := &capabilityRef{executor: yamlpos.ValueOf(def, "executor"), reliability: yamlpos.ValueOf(def, "reliability"), inputSchema: yamlpos.ValueOf(def, "inputSchema")}
	if g := yamlpos.Deref(yamlpos.ValueOf(def, "guards")); g != nil && g.Kind == yaml.SequenceNode {
		c.guards = g.Content
	}
	if w := yamlpos.ValueOf(def, "wraps"); w != nil {
		parent := r.flatten(w.Value, yamlpos.Of(w), "capabilities: "+chain.Quote(name)+": wraps "+chain.Quote(w.Value)+", which")
		if parent == nil {
			return nil
		}
		if c.executor == nil {
			c.executor = parent.executor
		}
		if c.reliability == nil {
			c.reliability = parent.reliability
		}
		if c.inputSchema == nil {
			c.inputSchema = parent.inputSchema
		}
		c.guards = append(slices.Clone(parent.guards), c.guards...)
	}
	if c.executor == nil {
		r.d.Errorf(yamlpos.Of(def), "capabilities: %q: needs an executor or wraps (the capability it builds on)", name)
		return nil
	}
	r.flattened[name] = c
	return c
}

// otherKeys is m's keys but except, in order.
func otherKeys(m *yaml.Node, except string) []string {
	var out []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i].Value; k != except {
			out = append(out, k)
		}
	}
	return out
}

// dropKey removes key (and its value) from m.
func dropKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = slices.Delete(m.Content, i, i+2)
			return
		}
	}
}

// setValue sets m's key to v, adding the key when m lacks it.
func setValue(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: v.Line, Column: v.Column}
	m.Content = append(m.Content, k, v)
}

// copyNode is a deep copy of n, keeping its positions, so one capability
// used twice is two executors; an alias stays one (the decoder resolves
// it), so a copy is never larger than the text.
func copyNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = copyNode(k)
	}
	return &c
}
