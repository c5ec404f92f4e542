package guardexpr

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// slotFn reads a slot of the context: (probe, path as written, context,
// segments...). A slot that is not there is an error, noted on the probe.
func slotFn(params ...any) (any, error) {
	p, _ := params[0].(*probe)
	raw, _ := params[1].(string)
	v, ok := lookup(params[2], params[3:])
	if !ok {
		if p != nil && p.unset == "" {
			p.unset = raw
		}
		return nil, errors.New(raw + " is not set")
	}
	return v, nil
}

// optFn reads a path of the arguments, the input or the workflow: nil
// when it is not there (the caller may leave an argument out).
func optFn(params ...any) (any, error) {
	v, _ := lookup(params[0], params[1:])
	return v, nil
}

// lookup follows segments (names and list indexes) into a value.
func lookup(v any, segs []any) (any, bool) {
	for _, s := range segs {
		switch k := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			l, ok := v.([]any)
			if !ok || k < 0 || k >= len(l) {
				return nil, false
			}
			v = l[k]
		default:
			return nil, false
		}
	}
	return v, true
}

// guardCompare turns every comparison into a call of compareFn.
type guardCompare struct{}

func (guardCompare) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok {
		return
	}
	switch b.Operator {
	case "==", "!=", "<", ">", "<=", ">=":
	default:
		return
	}
	ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: guardCompareFn},
		Arguments: []ast.Node{&ast.StringNode{Value: b.Operator}, b.Left, b.Right}})
}

// compareFn is (operator, left, right) → bool.
func compareFn(params ...any) (any, error) {
	op, _ := params[0].(string)
	return compareGuard(op, params[1], params[2]), nil
}

// compareGuard compares as mcp-flowgate's guards do: two numbers (or a
// number and numeric text) as numbers; otherwise == and != by value, and
// an ordering only between two texts.
func compareGuard(op string, a, b any) bool {
	a, b = plainJSON(a), plainJSON(b)
	x, xNum := a.(float64)
	y, yNum := b.(float64)
	if xNum && !yNum {
		y, yNum = numericText(b)
	} else if yNum && !xNum {
		x, xNum = numericText(a)
	}
	if xNum && yNum {
		switch op {
		case "==":
			return x == y
		case "!=":
			return x != y
		case "<":
			return x < y
		case ">":
			return x > y
		case "<=":
			return x <= y
		case ">=":
			return x >= y
		}
	}
	switch op {
	case "==":
		return reflect.DeepEqual(a, b)
	case "!=":
		return !reflect.DeepEqual(a, b)
	}
	s, sOK := a.(string)
	t, tOK := b.(string)
	if !sOK || !tOK {
		return false
	}
	switch op {
	case "<":
		return s < t
	case ">":
		return s > t
	case "<=":
		return s <= t
	case ">=":
		return s >= t
	}
	return false
}

// numericText reads text that is a number.
func numericText(v any) (float64, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// plainJSON is v with every number a float64, so that values from YAML,
// JSON and the expression compare equal when they are.
func plainJSON(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case uint64:
		return float64(x)
	case float32:
		return float64(x)
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainJSON(e)
		}
		return out
	}
	return v
}
