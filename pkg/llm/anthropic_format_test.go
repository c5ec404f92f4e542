package llm

import "testing"

// TestNativeJSONModels: Claude 4.5 and later constrain answers to a schema
// themselves; older models, dated 4.0 names and other families do not.
func TestNativeJSONModels(t *testing.T) {
	for model, want := range map[string]bool{
		"claude-sonnet-4-5": true, "claude-haiku-4-5": true, "claude-opus-4-6": true, "claude-sonnet-4-5-20250929": true,
		"claude-opus-4-7": true, "claude-sonnet-5": true,
		"claude-sonnet-4-20250514": false, "claude-opus-4-1": false, "claude-3-7-sonnet-latest": false, "claude-sonnet-4": false,
		"gpt-5": false, "claude-x": false,
	} {
		if got := nativeJSON(model); got != want {
			t.Errorf("%s: %v, want %v", model, got, want)
		}
	}
}

// TestConstrainableSchemas: only a closed schema without the bounds
// Claude's decoding refuses is sent as output_config.
func TestConstrainableSchemas(t *testing.T) {
	closed := func(prop map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": map[string]any{"a": prop}, "required": []any{"a"}, "additionalProperties": false}
	}
	for name, tt := range map[string]struct {
		schema map[string]any
		want   bool
	}{
		"closed":         {closed(map[string]any{"type": "string", "enum": []any{"x"}}), true},
		"minItems 1":     {closed(map[string]any{"type": "array", "minItems": 1.0}), true},
		"open":           {map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{}}}, false},
		"minimum":        {closed(map[string]any{"type": "number", "minimum": 0.0}), false},
		"maxLength":      {closed(map[string]any{"type": "string", "maxLength": 3}), false},
		"minItems 2":     {closed(map[string]any{"type": "array", "minItems": 2.0}), false},
		"a reference":    {closed(map[string]any{"$ref": "#/$defs/x"}), false},
		"deep in a list": {closed(map[string]any{"type": "array", "items": closed(map[string]any{"type": "integer", "multipleOf": 2})}), false},
	} {
		if got := constrainable(tt.schema); got != tt.want {
			t.Errorf("%s: %v, want %v", name, got, tt.want)
		}
	}
}
