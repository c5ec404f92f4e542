package fileschema

import "encoding/json"

// HoldsWriteOnly reports whether a schema, written out as JSON or YAML
// decodes it (maps, lists, scalars; a *jsonschema.Schema is read through
// its JSON), is writeOnly itself or in any part: a property of an
// object, a list's items, an alternative. A value for such a schema is a
// secret in whole, however deep the writeOnly part sits, as the run masks
// a secret's every string and number.
func HoldsWriteOnly(schema any) bool {
	switch x := schema.(type) {
	case map[string]any:
		if x["writeOnly"] == true {
			return true
		}
		for _, e := range x {
			if HoldsWriteOnly(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if HoldsWriteOnly(e) {
				return true
			}
		}
	case nil, string, bool, int, int64, uint64, float64, json.Number:
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return false
		}
		var d any
		if json.Unmarshal(b, &d) != nil {
			return false
		}
		return HoldsWriteOnly(d)
	}
	return false
}

// WriteOnlyProperties are the names of an object schema's properties
// that hold a writeOnly part (HoldsWriteOnly), in no order.
func WriteOnlyProperties(schema map[string]any) []string {
	props, _ := schema["properties"].(map[string]any)
	var out []string
	for name, p := range props {
		if HoldsWriteOnly(p) {
			out = append(out, name)
		}
	}
	return out
}
