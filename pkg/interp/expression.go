package interp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Expression is a compiled expr-lang expression: a condition, an
// early_exit_if or a transform. Conditions may use reference 004's form,
// '{var} == "value"', which is rewritten to plain expr-lang.
type Expression struct {
	// Source is the text as written in the chain file.
	Source string
	// Names are the variables the expression reads.
	Names []string
	// InputFields are the inputs it reads as input.NAME.
	InputFields []string
	program     *vm.Program
	// loops says the expression may iterate (a predicate of filter, map,
	// all, reduce…, or a range a..b): only then can it run long enough to
	// be worth stopping (EvalContext); without one its time is bounded by
	// the size of what it reads.
	loops bool
	// fallback is set instead of program for a condition a front-end
	// judges by its own rules (FallbackExpression).
	fallback func(env map[string]any) (bool, error)
}

// FallbackExpression is a condition that holds when holds says so rather
// than by expr-lang: a condition of a peer's file that chainrun's own
// format would refuse, kept as that peer judges it (chain's OCC
// reading). Names are the variables it reads.
func FallbackExpression(source string, names []string, holds func(env map[string]any) (bool, error)) *Expression {
	return &Expression{Source: source, Names: names, fallback: holds}
}

// refForm matches a {name.field} or {name|"fallback"} reference, optionally
// wrapped in quotes: '"{var}" == "x"' compares the variable as a string.
var refForm = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(["']?)\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)(?:\|("[^"}]*"|'[^'}]*'))?\}(["']?)`)
})

// RefForm matches a {name.field} or {name|"fallback"} reference as a
// condition writes it: the quote before it, the name, the fallback, the
// quote after it.
func RefForm() *regexp.Regexp { return refForm() }

// rewriteRefs turns reference 004's {var} placeholders into expr-lang.
func rewriteRefs(src string) string {
	re := refForm()
	return re.ReplaceAllStringFunc(src, func(m string) string {
		g := re.FindStringSubmatch(m)
		open, name, fallback, close := g[1], g[2], g[3], g[4]
		body := name
		if fallback != "" {
			body = "(" + name + " ?? " + `"` + strings.Trim(fallback, `"'`) + `"` + ")"
		}
		if open != "" && open == close {
			return "string(" + body + ")"
		}
		return open + "(" + body + ")" + close
	})
}

// CompileExpression parses src, checks that every variable it names is in
// scope and compiles it. Comparisons against a literal convert the other
// side to the literal's type, since step outputs are text: {count} > 3 and
// {flag} == "true" both mean what a reader expects.
func CompileExpression(src string, inScope func(string) bool, asBool bool) (*Expression, error) {
	rewritten := rewriteRefs(src)
	tree, err := parser.Parse(rewritten)
	if err != nil {
		return nil, fmt.Errorf("does not parse: %s", FirstLine(err.Error()))
	}
	names, inputFields := CollectNames(tree.Node)
	var unknown []string
	for _, n := range names {
		if !inScope(n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return nil, &UnknownNamesError{Names: unknown}
	}
	// Names were checked above; types are only known at run time.
	opts := append([]expr.Option{expr.AllowUndefinedVariables(), expr.Patch(literalCoercion{})}, BudgetOptions()...)
	// A variable named like a builtin (count, len, keys…) is the variable.
	for _, b := range builtin.Builtins {
		if inScope(b.Name) {
			opts = append(opts, expr.DisableBuiltin(b.Name))
		}
	}
	if asBool {
		opts = append(opts, expr.AsBool())
	}
	prog, err := expr.Compile(rewritten, opts...)
	if err != nil {
		return nil, fmt.Errorf("does not compile: %s", FirstLine(err.Error()))
	}
	return &Expression{Source: src, Names: names, InputFields: inputFields, program: prog, loops: mayLoop(tree.Node)}, nil
}

// UnknownNamesError is an expression naming variables nothing in scope
// produces: Names, sorted.
type UnknownNamesError struct{ Names []string }

func (e *UnknownNamesError) Error() string {
	return "names " + strings.Join(e.Names, ", ") + ", which nothing in scope produces"
}

// FirstLine is the first line of a message from a library (expr-lang's,
// a schema's): the rest is context a chain's reader does not need.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// CollectNames lists the top-level identifiers an expression reads,
// leaving out function names and let-bound names, and the fields it reads
// of `input`.
func CollectNames(root ast.Node) ([]string, []string) {
	seen := map[string]bool{}
	fields := map[string]bool{}
	bound := map[string]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch n := n.(type) {
		case nil:
		case *ast.IdentifierNode:
			if !bound[n.Value] {
				seen[n.Value] = true
			}
		case *ast.CallNode:
			if _, isName := n.Callee.(*ast.IdentifierNode); !isName {
				walk(n.Callee)
			}
			for _, a := range n.Arguments {
				walk(a)
			}
		case *ast.VariableDeclaratorNode:
			walk(n.Value)
			bound[n.Name] = true
			walk(n.Expr)
		case *ast.MemberNode:
			if id, ok := n.Node.(*ast.IdentifierNode); ok && id.Value == "input" && !bound["input"] {
				if f, ok := n.Property.(*ast.StringNode); ok {
					fields[f.Value] = true
				}
			}
			walk(n.Node)
			if _, isField := n.Property.(*ast.StringNode); !isField {
				walk(n.Property)
			}
		case *ast.BinaryNode:
			walk(n.Left)
			walk(n.Right)
		case *ast.UnaryNode:
			walk(n.Node)
		case *ast.ConditionalNode:
			walk(n.Cond)
			walk(n.Exp1)
			walk(n.Exp2)
		case *ast.BuiltinNode:
			for _, a := range n.Arguments {
				walk(a)
			}
		case *ast.PredicateNode:
			walk(n.Node)
		case *ast.ArrayNode:
			for _, a := range n.Nodes {
				walk(a)
			}
		case *ast.MapNode:
			for _, p := range n.Pairs {
				walk(p)
			}
		case *ast.PairNode:
			walk(n.Key)
			walk(n.Value)
		case *ast.SliceNode:
			walk(n.Node)
			walk(n.From)
			walk(n.To)
		case *ast.ChainNode:
			walk(n.Node)
		case *ast.SequenceNode:
			for _, a := range n.Nodes {
				walk(a)
			}
		}
	}
	walk(root)
	return SortedKeys(seen), SortedKeys(fields)
}

// SortedKeys is a set's members in order, never nil.
func SortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// literalCoercion converts the non-literal side of a comparison with a
// string or number literal to that literal's type.
type literalCoercion struct{}

func (literalCoercion) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok {
		return
	}
	switch b.Operator {
	case "==", "!=", "<", ">", "<=", ">=", "contains", "startsWith", "endsWith", "matches":
	default:
		return
	}
	coerce := func(lit ast.Node, other *ast.Node) {
		var fn string
		switch lit.(type) {
		case *ast.StringNode:
			fn = "string"
		case *ast.IntegerNode, *ast.FloatNode:
			if b.Operator == "contains" || b.Operator == "startsWith" || b.Operator == "endsWith" || b.Operator == "matches" {
				return
			}
			fn = "float"
		default:
			return
		}
		if isLiteral(*other) {
			return
		}
		*other = &ast.BuiltinNode{Name: fn, Arguments: []ast.Node{*other}}
	}
	coerce(b.Right, &b.Left)
	coerce(b.Left, &b.Right)
}

func isLiteral(n ast.Node) bool {
	switch n.(type) {
	case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode:
		return true
	}
	return false
}

// Eval runs the expression against variables (see ExprValue for how a
// variable's text becomes a value).
func (e *Expression) Eval(env map[string]any) (any, error) {
	out, err := RunExpr(e.program, env)
	if err != nil {
		return nil, exprError(e.Source, err)
	}
	return out, nil
}

// exprError is an evaluation's error as a step shows it: the expression,
// then the first line of what went wrong.
func exprError(source string, err error) error {
	return fmt.Errorf("%s: %s", source, FirstLine(err.Error()))
}

// Holds evaluates a condition.
func (e *Expression) Holds(env map[string]any) (bool, error) {
	if e.fallback != nil {
		return e.fallback(env)
	}
	out, err := e.Eval(env)
	if err != nil {
		return false, err
	}
	return holdsValue(e.Source, out)
}

// holdsValue is a condition's value as true or false; any other is an
// error naming the condition.
func holdsValue(source string, out any) (bool, error) {
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("%s: gives %T, not true or false", source, out)
	}
	return b, nil
}

// Truthy evaluates an expression whose value counts as a bare guard's
// does (mcp-flowgate's join expression "$.ok_count"): true, a non-zero
// number, text, a list or an object that is not empty.
func (e *Expression) Truthy(env map[string]any) (bool, error) {
	out, err := e.Eval(env)
	if err != nil {
		return false, err
	}
	return Truthy(out), nil
}

// ConditionValue is how a variable's text appears inside a condition:
// as ExprValue, except that an integer beyond int64 stays text (whole,
// comparable with a string) rather than a float64 that is not it.
func ConditionValue(text string) any {
	v := ExprValue(text)
	if f, ok := v.(float64); ok {
		t := strings.TrimSpace(text)
		if !strings.ContainsAny(t, ".eE") {
			if n, err := strconv.ParseInt(t, 10, 64); err == nil {
				if float64(n) == f && n >= -1<<53 && n <= 1<<53 {
					return f
				}
				return n
			}
			return text
		}
	}
	return v
}

// ExprValue is how a variable's text appears inside an expression: JSON
// text as its value (so fields and numbers work), anything else as the
// string itself.
func ExprValue(text string) any {
	t := strings.TrimSpace(text)
	if t == "" {
		return text
	}
	switch t[0] {
	case '{', '[', '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 't', 'f', 'n':
		var v any
		if err := json.Unmarshal([]byte(t), &v); err == nil {
			if v == nil {
				return text
			}
			return v
		}
	}
	return text
}
