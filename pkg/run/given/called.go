package given

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// What a workflow step passes the workflow it calls, held against the
// callee's declaration: the names it has no input of (refused before
// anything runs) and a value of another type or outside its enum
// (passed on as given, with a warning, as mcp-flowgate hands a called
// workflow its inputs).

// Unknown are the passed names workflow c declares no input of, sorted,
// when it refuses unknown ones: none when it says nothing of its inputs
// or takes ones it does not declare.
func Unknown(c *chain.Chain, passed map[string]string) []string {
	if Undeclared(c) || c.InputsOpen() {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(passed)) {
		if c.Input(k) == nil {
			out = append(out, k)
		}
	}
	return out
}

// Undeclared reports whether a workflow says nothing of its inputs: a
// workflow step then gives it whatever use.inputs names, unchecked, as
// mcp-flowgate starts a sub-workflow with its input map.
func Undeclared(c *chain.Chain) bool {
	return len(c.Inputs) == 0 && c.Workflow.Schema == nil
}

// Mismatch is why value v (text its text) is not what input in declares:
// "of type T, but it is given …" or "as one of …, but it is given …" (a
// secret's value unsaid); "" when it is.
func Mismatch(in *chain.Input, v any, text string) string {
	if in.Type != "" && chain.CheckInputValue(in.Type, text) != nil {
		return fmt.Sprintf("of type %s, but it is given %s", in.Type, jsonKind(v))
	}
	if len(in.Enum) > 0 && !slices.Contains(in.Enum, text) {
		value := strconv.Quote(text)
		if in.Secret {
			value = "another value"
		}
		return fmt.Sprintf("as one of %s, but it is given %s", strings.Join(in.Enum, ", "), value)
	}
	return ""
}

// jsonKind names the JSON type of a value, as a warning says it.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int, int64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
