package fileschema

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/spell"
)

// schemaTypes are JSON Schema's type names.
var schemaTypes = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

// UnknownTypes says which type names of a schema written in a file
// (decoded JSON: maps, lists, strings) are none of JSON Schema's, with
// the nearest name, nested schemas included: the library that compiles
// schemas takes any name, and a typo would refuse (or let through) every
// value only when the run checks one. Values that are data, not schemas
// (enum, const, default, examples), and a property named type are not
// read as types. It returns "" when every type is known.
func UnknownTypes(raw any) string {
	var bad []string
	var walk func(v any, schema bool)
	walk = func(v any, schema bool) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				val := x[k]
				switch {
				case schema && k == "type":
					bad = append(bad, badTypeNames(val)...)
				case k == "enum" || k == "const" || k == "default" || k == "examples":
				case k == "properties" || k == "patternProperties" || k == "$defs" || k == "definitions" || k == "dependentSchemas":
					// a map of names to schemas: a name is no keyword
					if m, ok := val.(map[string]any); ok {
						for _, name := range slices.Sorted(maps.Keys(m)) {
							walk(m[name], true)
						}
					}
				default:
					walk(val, true)
				}
			}
		case []any:
			for _, e := range x {
				walk(e, schema)
			}
		}
	}
	walk(raw, true)
	return strings.Join(bad, "; ")
}

// badTypeNames are the names of a type keyword's value (a name or a list
// of them) that JSON Schema does not know, each said with the nearest.
func badTypeNames(v any) []string {
	var names []string
	switch x := v.(type) {
	case string:
		names = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				names = append(names, s)
			}
		}
	}
	var out []string
	for _, n := range names {
		if !slices.Contains(schemaTypes, n) {
			out = append(out, fmt.Sprintf("type %q%s is not a JSON Schema type (%s)", n, spell.DidYouMean(n, schemaTypes), strings.Join(schemaTypes, ", ")))
		}
	}
	return out
}
