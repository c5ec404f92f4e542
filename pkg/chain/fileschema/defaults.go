package fileschema

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// FillDefaults sets, in obj, each property the schema gives a default
// and obj lacks — required ones too — then does the same inside every
// object property, making an absent one whose own properties have
// defaults. mcp-flowgate fills defaults this way before it checks
// `required`, so a required input or argument with a default, or an
// object whose fields all have defaults, need not be given. (The
// schema library skips required properties and absent objects.)
func FillDefaults(s *jsonschema.Schema, obj map[string]any) {
	if s == nil || obj == nil {
		return
	}
	for prop, sub := range s.Properties {
		if sub == nil {
			continue
		}
		v, ok := obj[prop]
		if !ok && sub.Default != nil {
			var d any
			if json.Unmarshal(sub.Default, &d) == nil {
				v, ok = d, true
			}
		}
		if !ok && HasDefaults(sub) {
			v, ok = map[string]any{}, true
		}
		if m, isObject := v.(map[string]any); isObject {
			FillDefaults(sub, m)
		}
		if ok {
			obj[prop] = v
		}
	}
}

// HasDefaults reports whether an object schema gives a default to any of
// its properties, at any depth: such an object need not be given.
func HasDefaults(s *jsonschema.Schema) bool { return hasDefaults(s, 0) }

// hasDefaults is HasDefaults bounded, for a schema that nests itself.
func hasDefaults(s *jsonschema.Schema, depth int) bool {
	if s == nil || depth > 32 {
		return false
	}
	for _, sub := range s.Properties {
		if sub != nil && (sub.Default != nil || hasDefaults(sub, depth+1)) {
			return true
		}
	}
	return false
}
