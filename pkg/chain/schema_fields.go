package chain

import (
	"reflect"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// The pieces of the JSON Schema the model's own types give: a struct
// described by its yaml and doc tags. pkg/chain/schema writes the whole
// schema of a chain file from them; kinds describe their special keys
// with them (Unit.Schema).

// StringOrList is the schema of a key that takes a text or a list of texts.
func StringOrList() map[string]any {
	return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}
}

// ObjectSchema describes a struct by its yaml tags (embedded structs
// flattened, a field's doc tag its description); special overrides the
// schema of named fields.
func ObjectSchema(t reflect.Type, special map[string]any) map[string]any {
	return FieldsSchema(yamlpos.FieldsOf(t), special)
}

// objectSchema and copyMap are ObjectSchema and CopyMap by the names the
// model's own pieces (handlers, dotenv) use.
func objectSchema(t reflect.Type, special map[string]any) map[string]any {
	return ObjectSchema(t, special)
}

func copyMap(m map[string]any) map[string]any { return CopyMap(m) }

// FieldsSchema is ObjectSchema for a set of keys (a step's, held in parts).
func FieldsSchema(fs *yamlpos.FieldSet, special map[string]any) map[string]any {
	props := map[string]any{}
	for _, f := range fs.List {
		var s map[string]any
		switch sp, ok := special[f.Key]; {
		case ok:
			s = CopyMap(sp.(map[string]any))
		case f.Scalar:
			s = StringOrList()
		default:
			s = typeSchema(f.Type)
		}
		if doc := f.Doc(); doc != "" {
			s["description"] = doc
		}
		props[f.Key] = s
	}
	return map[string]any{"type": "object", "additionalProperties": false, "properties": props}
}

// CopyMap is a shallow copy of a schema, to change some of its keys.
func CopyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem())}
	}
	return map[string]any{}
}

// StepKeys are the keys of a step, of every kind (the parts registered
// kinds give).
func StepKeys() *yamlpos.FieldSet { return stepKeySet() }

// HandlersSchema is the JSON Schema of a DAG chain's handlers:, each
// handler a step of the schema step.
func HandlersSchema(step map[string]any) map[string]any { return handlersSchema(step) }
