package wfyaml

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/guardexpr"
	"github.com/chainrun/chainrun/pkg/chain/wfpart"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// decodeOutputMappings reads a transition's `output:`: each key a context
// key, each value a JSONPath, a literal, or {operator: [operands]}.
func decodeOutputMappings(d *yamlpos.Diags, v *yaml.Node, prefix string) []*chain.OutputMapping {
	prefix += "output: "
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%soutput maps each context key to a JSONPath ($.output.json.x) or {add: [a, b]}", prefix)
		return nil
	}
	var out []*chain.OutputMapping
	for _, p := range yamlpos.MappingPairs(d, v, prefix) {
		m := &chain.OutputMapping{Key: p.Key.Value, Pos: yamlpos.Of(p.Key)}
		n := yamlpos.Deref(p.Value)
		kprefix := prefix + p.Key.Value + ": "
		switch n.Kind {
		case yaml.MappingNode:
			if len(n.Content) != 2 {
				d.Errorf(yamlpos.Of(n), "%san operation is one of %s with its operands, as in {add: [\"$.context.n\", 1]}", kprefix, strings.Join(wfpart.OutputOps(), ", "))
				continue
			}
			m.Op = n.Content[0].Value
			if !slices.Contains(wfpart.OutputOps(), m.Op) {
				d.Errorf(yamlpos.Of(n.Content[0]), "%sunknown operator %q: use %s%s", kprefix, m.Op, strings.Join(wfpart.OutputOps(), ", "), spell.DidYouMean(m.Op, wfpart.OutputOps()))
				continue
			}
			args := yamlpos.Deref(n.Content[1])
			items := []*yaml.Node{args}
			if args.Kind == yaml.SequenceNode {
				items = args.Content
			}
			for _, it := range items {
				if op, ok := decodeOperand(d, yamlpos.Deref(it), kprefix); ok {
					m.Operands = append(m.Operands, op)
				}
			}
			if m.Op != chain.OpSet && m.Op != chain.OpConcat && len(items) != 2 {
				d.Errorf(yamlpos.Of(args), "%s%s takes two operands, as in {%s: [\"$.context.n\", 1]}", kprefix, m.Op, m.Op)
			}
			if m.Op == chain.OpSet && len(items) == 0 {
				d.Errorf(yamlpos.Of(args), "%sset takes a value (a list of several sets the list)", kprefix)
			}
		default:
			op, ok := decodeOperand(d, n, kprefix)
			if !ok {
				continue
			}
			m.Operands = []chain.Operand{op}
		}
		out = append(out, m)
	}
	return out
}

// decodeOperand reads one operand: text starting with $ is a JSONPath
// whose root must be one the transition's document has.
func decodeOperand(d *yamlpos.Diags, n *yaml.Node, prefix string) (chain.Operand, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.HasPrefix(n.Value, "$") {
		p, err := interp.ParsePath(n.Value)
		if err == nil {
			return chain.Operand{Path: p, Raw: n.Value}, true
		}
		if strings.ContainsAny(n.Value, "=<>!&|+-*/ ") {
			// not a path: an expression over paths, as mcp-flowgate's
			// files write computed values
			e, xerr := guardexpr.CompileOutput(n.Value)
			if xerr == nil {
				return wfpart.ExprOperand(n.Value, e), true
			}
			d.Errorf(yamlpos.Of(n), "%s%q is neither a JSONPath nor an expression: it %v", prefix, n.Value, xerr)
			return chain.Operand{}, false
		}
		d.Errorf(yamlpos.Of(n), "%s%v", prefix, err)
		return chain.Operand{}, false
	}
	var lit any
	if !yamlpos.DecodeInto(d, n, &lit) {
		return chain.Operand{}, false
	}
	return chain.Operand{Literal: chain.NormalizeYAML(lit), Raw: n.Value}, true
}
