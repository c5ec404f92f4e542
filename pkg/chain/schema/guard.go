package schema

import (
	"reflect"

	"github.com/chainrun/chainrun/pkg/chain"
)

// guardSchema describes one guard; the guards an all_of, any_of or not
// holds are described as objects (the schema inlines every definition,
// so it cannot recurse).
func guardSchema() map[string]any {
	kinds := append(chain.GuardKinds(), "allOf", "anyOf", "jsonpath")
	requirement := chain.ObjectSchema(reflect.TypeFor[chain.EvidenceRequirement](), map[string]any{
		"count":          map[string]any{"type": "integer", "minimum": 1},
		"min_confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1},
	})
	requirement["required"] = []string{"kind"}
	g := chain.ObjectSchema(reflect.TypeFor[chain.Guard](), map[string]any{
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
	out := chain.CopyMap(executor)
	props := chain.CopyMap(executor["properties"].(map[string]any))
	ev := chain.ObjectSchema(reflect.TypeFor[chain.EvidenceDecl](), nil)
	ev["required"] = []string{"kind"}
	ev["description"] = "The evidence taking the transition records once the executor succeeded (mcp-flowgate): what evidence guards count."
	props["evidence"] = ev
	out["properties"] = props
	return out
}
