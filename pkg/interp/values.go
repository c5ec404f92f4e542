package interp

import "fmt"

// NormalizeYAML turns YAML-decoded maps with any keys into JSON-ready
// ones: every reader of YAML values that meets JSON (schemas, chain
// tests' expectations) shares it.
func NormalizeYAML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = NormalizeYAML(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = NormalizeYAML(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = NormalizeYAML(e)
		}
		return out
	}
	return v
}

// IntValue is a YAML- or JSON-decoded number as an int, and whether it
// is a whole one: the counts written in a chain file and the sizes an
// expression's budget reads.
func IntValue(x any) (int, bool) {
	switch n := x.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case uint64:
		return int(n), true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

// Truthy is how a value that is not a comparison counts: a bare
// $.context.approved holds when it is true, a non-zero number, or text,
// a list or an object that is not empty.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case int:
		return x != 0
	case int64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}
