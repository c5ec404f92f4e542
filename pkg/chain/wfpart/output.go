package wfpart

import (
	"github.com/chainrun/chainrun/pkg/chain/guardexpr"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	"github.com/theory/jsonpath"
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
	Pos      yamlpos.Pos
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
	return o.expr.Eval(&guardexpr.GuardFacts{Context: ctx, Arguments: args, Input: doc["input"]}, doc["output"])
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

// ExprOperand is the operand of an expression over the transition's
// document, raw as written: the workflow reader compiles it
// (guardexpr.CompileOutput) and Eval computes it.
func ExprOperand(raw string, e *guardexpr.Expr) Operand { return Operand{Raw: raw, expr: e} }
