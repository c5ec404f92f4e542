package chain

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain/guardexpr"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/theory/jsonpath"
	yaml "go.yaml.in/yaml/v4"
)

// OutputMapping is one key of a transition's `output:` (mcp-flowgate):
// the context key it sets and how its value is made, so that two
// executors reporting `passed` land in lintPassed and testsPassed instead
// of overwriting each other.
type OutputMapping struct {
	// Key is the context key the value is stored under.
	Key string
	// Op is how the operands combine: empty copies the one operand;
	// add, subtract, multiply, divide, set or concat.
	Op       string
	Operands []Operand
	Pos      Pos
}

// Operand is a value an output mapping reads: a JSONPath into the
// transition's document ($.output, $.arguments, $.context,
// $.workflow.input, $.input), or a literal written in the file.
type Operand struct {
	Path    *jsonpath.Path
	Raw     string
	Literal any
	// expr, when set, is an expression over the same paths
	// ("$.output.json.verdict == 'passed'"), whose value is the operand.
	expr *guardexpr.Expr
}

// IsExpr reports whether the operand is an expression, not a path.
func (o Operand) IsExpr() bool { return o.expr != nil }

// Eval computes an expression operand over the transition's document
// (output, arguments, context, workflow.input); reading an unset context
// slot is an error naming it.
func (o Operand) Eval(doc map[string]any) (any, error) {
	ctx, _ := doc["context"].(map[string]any)
	args, _ := doc["arguments"].(map[string]any)
	return o.expr.Eval(&GuardFacts{Context: ctx, Arguments: args, Input: doc["input"]}, doc["output"])
}

// Output mapping operators (mcp-flowgate).
const (
	OpAdd      = "add"
	OpSubtract = "subtract"
	OpMultiply = "multiply"
	OpDivide   = "divide"
	OpSet      = "set"
	OpConcat   = "concat"
)

// OutputOps lists the output mapping operators, for messages and the
// schema.
func OutputOps() []string {
	return []string{OpAdd, OpSubtract, OpMultiply, OpDivide, OpSet, OpConcat}
}

// DecodeOutputMappings reads a transition's `output:`: each key a context
// key, each value a JSONPath, a literal, or {operator: [operands]}.
func DecodeOutputMappings(d *yamlpos.Diags, v *yaml.Node, prefix string) []*OutputMapping {
	prefix += "output: "
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%soutput maps each context key to a JSONPath ($.output.json.x) or {add: [a, b]}", prefix)
		return nil
	}
	var out []*OutputMapping
	for _, p := range yamlpos.MappingPairs(d, v, prefix) {
		m := &OutputMapping{Key: p.Key.Value, Pos: yamlpos.Of(p.Key)}
		n := yamlpos.Deref(p.Value)
		kprefix := prefix + p.Key.Value + ": "
		switch n.Kind {
		case yaml.MappingNode:
			if len(n.Content) != 2 {
				d.Errorf(yamlpos.Of(n), "%san operation is one of %s with its operands, as in {add: [\"$.context.n\", 1]}", kprefix, strings.Join(OutputOps(), ", "))
				continue
			}
			m.Op = n.Content[0].Value
			if !slices.Contains(OutputOps(), m.Op) {
				d.Errorf(yamlpos.Of(n.Content[0]), "%sunknown operator %q: use %s%s", kprefix, m.Op, strings.Join(OutputOps(), ", "), didYouMean(m.Op, OutputOps()))
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
			if m.Op != OpSet && m.Op != OpConcat && len(items) != 2 {
				d.Errorf(yamlpos.Of(args), "%s%s takes two operands, as in {%s: [\"$.context.n\", 1]}", kprefix, m.Op, m.Op)
			}
			if m.Op == OpSet && len(items) == 0 {
				d.Errorf(yamlpos.Of(args), "%sset takes a value (a list of several sets the list)", kprefix)
			}
		default:
			op, ok := decodeOperand(d, n, kprefix)
			if !ok {
				continue
			}
			m.Operands = []Operand{op}
		}
		out = append(out, m)
	}
	return out
}

// decodeOperand reads one operand: text starting with $ is a JSONPath
// whose root must be one the transition's document has.
func decodeOperand(d *yamlpos.Diags, n *yaml.Node, prefix string) (Operand, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.HasPrefix(n.Value, "$") {
		p, err := interp.ParsePath(n.Value)
		if err == nil {
			return Operand{Path: p, Raw: n.Value}, true
		}
		if strings.ContainsAny(n.Value, "=<>!&|+-*/ ") {
			// not a path: an expression over paths, as mcp-flowgate's
			// files write computed values
			e, xerr := guardexpr.CompileOutput(n.Value)
			if xerr == nil {
				return Operand{Raw: n.Value, expr: e}, true
			}
			d.Errorf(yamlpos.Of(n), "%s%q is neither a JSONPath nor an expression: it %v", prefix, n.Value, xerr)
			return Operand{}, false
		}
		d.Errorf(yamlpos.Of(n), "%s%v", prefix, err)
		return Operand{}, false
	}
	var lit any
	if !yamlpos.DecodeInto(d, n, &lit) {
		return Operand{}, false
	}
	return Operand{Literal: NormalizeYAML(lit), Raw: n.Value}, true
}
