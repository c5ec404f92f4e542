package chain

import (
	yaml "go.yaml.in/yaml/v4"
)

// toolDefFields are the keys of a chain-defined tool.
var toolDefFields = []string{"description", "input_schema", "executor"}

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
		for _, tp := range mappingPairs(d, n, prefix) {
			tk, tv := tp.key, deref(tp.value)
			switch tk.Value {
			case "description":
				decodeInto(d, tv, &t.Description)
			case "input_schema":
				var schema map[string]any
				if decodeInto(d, tv, &schema) {
					t.InputSchema, _ = normalizeYAML(schema).(map[string]any)
				}
			case "executor":
				if tv.Kind != yaml.MappingNode {
					d.errorf(posOf(tv), "%sexecutor is a step definition (kind cli, http or transform, and its fields)", prefix)
					continue
				}
				if s, ok := decodeStep(d, tv, prefix+"executor: "); ok {
					s.ID = t.Name
					t.Executor = s
					if _, known := kindOf(s.Type); !known {
						d.reportUnknownKind(s.At("type"), "tool "+quote(t.Name)+" executor", "kind", s.Type, toolKindNames())
					}
				}
			default:
				d.errorf(posOf(tk), "%sunknown field %q%s", prefix, tk.Value, didYouMean(tk.Value, toolDefFields))
			}
		}
		out = append(out, t)
	}
	return out
}
