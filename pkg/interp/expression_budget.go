package interp

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	exprrt "github.com/expr-lang/expr/vm/runtime"
)

// ExprMemoryBudget is the most an expression (a transform, a condition, a
// guard) may build in one evaluation, in bytes: text made by repeat,
// replace, join, toJSON, upper…, text and lists joined by + or concat.
// Inputs decide those sizes, so each is sized before it is made and an
// evaluation that would pass the budget fails, naming the function: a
// run (or `chainrun mcp`, every run in one process) never dies of an
// expression that asks for gigabytes.
const ExprMemoryBudget = 64 << 20

// exprBudgetVar is the variable through which an evaluation's budget
// reaches the functions that size what they build (not an identifier a
// chain can write: it ends in "__", as the guards' own names do).
const exprBudgetVar = "budget__"

// withBudget is env with a budget of its own for one evaluation (the
// caller's map is not changed: it may serve several at once).
func withBudget(env map[string]any) map[string]any {
	out := make(map[string]any, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	out[exprBudgetVar] = &exprBudget{left: ExprMemoryBudget}
	return out
}

// exprBudget is what one evaluation may still build.
type exprBudget struct{ left int }

// take counts n bytes made by fn, or says why they may not be.
func (b *exprBudget) take(fn string, n int) error {
	if err := b.check(fn, n); err != nil {
		return err
	}
	b.left -= n
	return nil
}

// check says whether n more bytes fit, without counting them.
func (b *exprBudget) check(fn string, n int) error {
	if n >= 0 && n <= b.left {
		return nil
	}
	if n >= 0 && n <= ExprMemoryBudget {
		return fmt.Errorf("%s: with what the expression built before, the result would pass the %d MiB an expression may build", fn, ExprMemoryBudget>>20)
	}
	size := ""
	switch {
	case n >= 1<<30:
		size = fmt.Sprintf(" %.1f GiB,", float64(n)/(1<<30))
	case n > 0:
		size = fmt.Sprintf(" %.1f MiB,", float64(n)/(1<<20))
	}
	return fmt.Errorf("%s: the result would take%s more than the %d MiB an expression may build", fn, size, ExprMemoryBudget>>20)
}

// sizedFn is a builtin that builds text or lists: estimate, when not
// nil, says before the call how much the result will take (the functions
// whose result can be larger than everything they are given); every
// result is counted once made.
type sizedFn struct {
	name     string
	estimate func(args []any) int
}

// wordSize is what a list item or a number takes, roughly.
const wordSize = 16

var sizedFns = []sizedFn{
	{"repeat", estimateRepeat},
	{"replace", estimateReplace},
	{"join", estimateJoin},
	{"concat", func(args []any) int { return listItems(args, 1) * wordSize }},
	{"flatten", func(args []any) int { return listItems(args, -1) * wordSize }},
	{"toJSON", func(args []any) int { return jsonSize(args) }},
	{"string", func(args []any) int { return jsonSize(args) }},
	{"upper", nil}, {"lower", nil}, {"trim", nil}, {"trimPrefix", nil}, {"trimSuffix", nil},
	{"toBase64", nil}, {"fromBase64", nil}, {"fromJSON", nil}, {"split", nil}, {"splitAfter", nil},
}

// BudgetOptions are the compile options that size what an expression
// builds: each sized builtin call and each + becomes a call of a
// function given the evaluation's budget. They are built once (their
// signatures come from reflection) and shared by every compile: the
// slice is clipped, so a caller's append copies it.
func BudgetOptions() []expr.Option { return budgetOptions() }

var budgetOptions = sync.OnceValue(func() []expr.Option {
	opts := []expr.Option{expr.Patch(budgetPatch{}), expr.Function(sizedName("+"), sizedAdd)}
	for _, f := range sizedFns {
		opts = append(opts, expr.Function(sizedName(f.name), sizedCall(f), withBudgetParam(f.name)...))
	}
	return slices.Clip(opts)
})

// withBudgetParam are the signatures of builtin name with the budget as
// a first parameter, so that a call's arguments are still checked when
// the chain loads (repeat(1, "x") does not compile) and its result keeps
// its type.
func withBudgetParam(name string) []any {
	b := builtin.Builtins[builtin.Index[name]]
	anyType := reflect.TypeFor[any]()
	var out []any
	for _, t := range b.Types {
		if t.Kind() != reflect.Func {
			return nil
		}
		in := []reflect.Type{anyType}
		for i := range t.NumIn() {
			in = append(in, t.In(i))
		}
		outs := make([]reflect.Type, t.NumOut())
		for i := range outs {
			outs[i] = t.Out(i)
		}
		out = append(out, reflect.New(reflect.FuncOf(in, outs, t.IsVariadic())).Interface())
	}
	return out
}

func sizedName(fn string) string {
	if fn == "+" {
		return "add__"
	}
	return fn + "__"
}

// budgetPatch rewrites repeat(s, n) as repeat__(budget__, s, n), and
// a + b, when either side may be text, as add__(budget__, a, b), for
// each sized function. A + of operands known to be numbers, times or of
// types that cannot be added is left to expr-lang (and its checks).
type budgetPatch struct{}

func (budgetPatch) Visit(node *ast.Node) {
	budget := &ast.IdentifierNode{Value: exprBudgetVar}
	switch n := (*node).(type) {
	case *ast.BuiltinNode:
		for _, f := range sizedFns {
			if f.name == n.Name {
				args := append([]ast.Node{budget}, n.Arguments...)
				ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: sizedName(f.name)}, Arguments: args})
				return
			}
		}
	case *ast.BinaryNode:
		if n.Operator == "+" && mayBeText(n.Left.Type()) && mayBeText(n.Right.Type()) {
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: sizedName("+")}, Arguments: []ast.Node{budget, n.Left, n.Right}})
		}
	}
}

// mayBeText: a value of type t may be text when the run gives it (a
// variable's type is known only then).
func mayBeText(t reflect.Type) bool {
	return t == nil || t.Kind() == reflect.Interface || t.Kind() == reflect.String
}

// budgetOf splits the budget off a sized function's arguments; an
// evaluation that carries none gets a budget of its own.
func budgetOf(args []any) ([]any, *exprBudget) {
	if len(args) > 0 {
		if b, ok := args[0].(*exprBudget); ok {
			return args[1:], b
		}
		if args[0] == nil {
			args = args[1:]
		}
	}
	return args, &exprBudget{left: ExprMemoryBudget}
}

// sizedCall is builtin f, its result sized before (estimate) and counted
// after it is made.
func sizedCall(f sizedFn) func(args ...any) (any, error) {
	b := builtin.Builtins[builtin.Index[f.name]]
	return func(all ...any) (any, error) {
		args, budget := budgetOf(all)
		if f.estimate != nil {
			if err := budget.check(f.name, f.estimate(args)); err != nil {
				return nil, err
			}
		}
		out, err := callBuiltin(b, args)
		if err != nil {
			return nil, err
		}
		if unchanged(out, args) {
			return out, nil // string(text), a trim with nothing to trim: nothing new was made
		}
		return out, budget.take(f.name, sizeOf(out, budget.left+1))
	}
}

// unchanged reports whether a function gave back the text it was given.
func unchanged(out any, args []any) bool {
	s, ok := out.(string)
	if !ok || len(args) == 0 {
		return false
	}
	in, ok := args[0].(string)
	return ok && in == s
}

// callBuiltin calls expr-lang's own builtin, whichever form it has, its
// panic on arguments of the wrong type turned into an error.
func callBuiltin(b *builtin.Function, args []any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", b.Name, r)
		}
	}()
	switch {
	case b.Safe != nil:
		out, _, err = b.Safe(args...)
	case b.Func != nil:
		out, err = b.Func(args...)
	case b.Fast != nil && len(args) == 1:
		out = b.Fast(args[0])
	default:
		err = fmt.Errorf("%s: takes one argument, not %d", b.Name, len(args))
	}
	return out, err
}

// sizedAdd is +: text joined is sized before it is made; numbers are
// added as expr-lang adds them.
func sizedAdd(all ...any) (any, error) {
	args, budget := budgetOf(all)
	if len(args) != 2 {
		return nil, fmt.Errorf("+ takes two operands")
	}
	if a, ok := args[0].(string); ok {
		if b, ok := args[1].(string); ok {
			if err := budget.take("+", len(a)+len(b)); err != nil {
				return nil, err
			}
			return a + b, nil
		}
	}
	return exprAdd(args[0], args[1])
}

// exprAdd is expr-lang's +, its panic on operands it cannot add turned
// into an error.
func exprAdd(a, b any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return exprrt.Add(a, b), nil
}

func estimateRepeat(args []any) int {
	if len(args) != 2 {
		return 0
	}
	s, ok := args[0].(string)
	n, isInt := IntValue(args[1])
	if !ok || !isInt || n <= 0 {
		return 0
	}
	if len(s) > 0 && n > (ExprMemoryBudget+1)/len(s)+1 {
		return -1 // past the budget, whatever int overflow would say
	}
	return len(s) * n
}

func estimateReplace(args []any) int {
	if len(args) < 3 {
		return 0
	}
	s, ok1 := args[0].(string)
	old, ok2 := args[1].(string)
	repl, ok3 := args[2].(string)
	if !ok1 || !ok2 || !ok3 || len(repl) <= len(old) {
		return len(s)
	}
	count := len(s) + 1
	if old != "" {
		count = strings.Count(s, old)
	}
	if count > 0 && len(repl)-len(old) > ExprMemoryBudget/count+1 {
		return -1
	}
	return len(s) + count*(len(repl)-len(old))
}

func estimateJoin(args []any) int {
	if len(args) == 0 {
		return 0
	}
	glue := ""
	if len(args) > 1 {
		glue, _ = args[1].(string)
	}
	v := reflect.ValueOf(args[0])
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return 0
	}
	total := 0
	for i := range v.Len() {
		if s, ok := v.Index(i).Interface().(string); ok {
			total += len(s)
		}
		total += len(glue)
		if total > ExprMemoryBudget {
			return -1
		}
	}
	return total
}

// listItems counts the items of the lists among args, depth levels
// down (-1: every level), stopping once past the budget.
func listItems(args []any, depth int) int {
	n := 0
	var count func(v any, d int)
	count = func(v any, d int) {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			n++
			return
		}
		for i := 0; i < rv.Len() && n*wordSize <= ExprMemoryBudget; i++ {
			if d == 1 {
				n++
				continue
			}
			count(rv.Index(i).Interface(), d-1)
		}
	}
	for _, a := range args {
		count(a, depth)
	}
	return n
}
