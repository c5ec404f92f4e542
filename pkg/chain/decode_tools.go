package chain

import (
	yaml "go.yaml.in/yaml/v4"
)

// decodeTools reads a chain's `tools:` map: each tool's description, the
// JSON Schema of its arguments and the step that runs it.
func decodeTools(d *diags, v *yaml.Node) []*ToolDef {
	if v.Kind != yaml.MappingNode {
		d.errorf(posOf(v), "tools must map each tool's name to {description, input_schema, executor}")
		return nil
	}
	var out []*ToolDef
	for _, p := range mappingPairs(d, v, "tools: ") {
		k, n := p.key, deref(p.value)
		t := &ToolDef{Name: k.Value, Pos: posOf(k)}
		prefix := "tool " + quote(t.Name) + ": "
		if n.Kind != yaml.MappingNode {
			d.errorf(posOf(n), "%sa tool is a mapping with description, input_schema and executor", prefix)
			continue
		}
		walk(d, mappingPairs(d, n, prefix), t, nil, walkOpts{prefix: prefix}, func(k, v *yaml.Node) bool {
			switch k.Value {
			case "input_schema":
				var schema map[string]any
				if decodeInto(d, v, &schema) {
					t.InputSchema, _ = NormalizeYAML(schema).(map[string]any)
				}
			case "executor":
				if v.Kind != yaml.MappingNode {
					d.errorf(posOf(v), "%sexecutor is a step definition (kind cli, http or transform, and its fields)", prefix)
					return true
				}
				if s, ok := decodeStep(d, v, prefix+"executor: "); ok {
					s.ID, s.owner, s.role = t.Name, "tool", "executor"
					t.Executor = s
					if _, known := kindOf(s.Type); !known {
						d.reportUnknownKind(s.At("type"), s.subject(), "kind", s.Type, toolKindNames())
					}
				}
			default:
				return false
			}
			return true
		})
		out = append(out, t)
	}
	return out
}
