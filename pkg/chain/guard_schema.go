package chain

import "reflect"

// guardSchema describes one guard; the guards an all_of, any_of or not
// holds are described as objects (the schema inlines every definition,
// so it cannot recurse).
func guardSchema() map[string]any {
	kinds := append(GuardKinds(), "allOf", "anyOf", "jsonpath")
	requirement := objectSchema(reflect.TypeFor[EvidenceRequirement](), map[string]any{
		"count":          map[string]any{"type": "integer", "minimum": 1},
		"min_confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1},
	})
	requirement["required"] = []string{"kind"}
	g := objectSchema(reflect.TypeFor[Guard](), map[string]any{
		"kind":     map[string]any{"enum": kinds},
		"guards":   map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"type": "object"}},
		"guard":    map[string]any{"type": "object"},
		"requires": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"oneOf": []any{map[string]any{"type": "string"}, requirement}}},
	})
	g["required"] = []string{"kind"}
	return g
}

// withEvidence is a transition's executor: a step with evidence:.
func withEvidence(executor map[string]any) map[string]any {
	out := copyMap(executor)
	props := copyMap(executor["properties"].(map[string]any))
	ev := objectSchema(reflect.TypeFor[EvidenceDecl](), nil)
	ev["required"] = []string{"kind"}
	ev["description"] = "The evidence taking the transition records once the executor succeeded (mcp-flowgate): what evidence guards count."
	props["evidence"] = ev
	out["properties"] = props
	return out
}
