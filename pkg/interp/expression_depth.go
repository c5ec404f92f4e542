package interp

import (
	"fmt"
	"math"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// ExprMaxDepth is how deeply lists and maps may sit within each other in
// an expression's value (a transform's output, a for_each list, an output
// mapping's value). Cheap to build — reduce(1..20000, [#acc], []) takes
// a few megabytes — a deeper value could be saved in a run's journal but
// never read back from it (a JSON reader stops at 10000 levels), leaving
// a run that can neither be shown nor resumed; the evaluation fails
// instead, naming the bound.
const ExprMaxDepth = 1000

// RunExpr evaluates program on env within an evaluation's budget: what it
// builds (ExprMemoryBudget) and how deep its value nests (ExprMaxDepth).
// Every expression of a chain or workflow is evaluated through it.
func RunExpr(program *vm.Program, env map[string]any) (any, error) {
	out, err := expr.Run(program, withBudget(env))
	if err != nil {
		return nil, err
	}
	if nestsDeeper(reflect.ValueOf(out), ExprMaxDepth) {
		return nil, fmt.Errorf("the value nests lists and maps more than %d levels deep, more than a saved run can read back", ExprMaxDepth)
	}
	if f, ok := notJSONNumber(reflect.ValueOf(out), ExprMaxDepth); ok {
		return nil, fmt.Errorf("the value is or holds %v, which a saved run cannot hold: JSON has no NaN or infinity", f)
	}
	return out, nil
}

// notJSONNumber finds a NaN or an infinity in v, which encoding/json
// refuses to write (a run's journal, its result, the JSON output), down
// to left levels.
func notJSONNumber(v reflect.Value, left int) (float64, bool) {
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) {
		v = v.Elem()
	}
	if !v.IsValid() || left < 0 {
		return 0, false
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return f, true
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return 0, false
		}
		for i := range v.Len() {
			if f, ok := notJSONNumber(v.Index(i), left-1); ok {
				return f, true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if f, ok := notJSONNumber(it.Value(), left-1); ok {
				return f, true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if f, ok := notJSONNumber(v.Field(i), left-1); ok {
					return f, true
				}
			}
		}
	}
	return 0, false
}

// nestsDeeper reports whether v holds lists or maps more than left
// levels deep; it descends no further than that.
func nestsDeeper(v reflect.Value, left int) bool {
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) {
		v = v.Elem()
	}
	if !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false // bytes are text
		}
		if left == 0 {
			return true
		}
		for i := range v.Len() {
			if nestsDeeper(v.Index(i), left-1) {
				return true
			}
		}
	case reflect.Map:
		if left == 0 {
			return true
		}
		for it := v.MapRange(); it.Next(); {
			if nestsDeeper(it.Value(), left-1) {
				return true
			}
		}
	}
	return false
}
