package chain

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// DecodeTools reads a chain's `tools:` map: each tool's description, the
// JSON Schema of its arguments and the step that runs it.
func DecodeTools(d *yamlpos.Diags, v *yaml.Node) []*ToolDef {
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "tools must map each tool's name to {description, input_schema, executor}")
		return nil
	}
	var out []*ToolDef
	for _, p := range yamlpos.MappingPairs(d, v, "tools: ") {
		k, n := p.Key, yamlpos.Deref(p.Value)
		t := &ToolDef{Name: k.Value, Pos: yamlpos.Of(k)}
		prefix := "tool " + quote(t.Name) + ": "
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "%sa tool is a mapping with description, input_schema and executor", prefix)
			continue
		}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, prefix), t, nil, yamlpos.WalkOpts{Prefix: prefix}, func(k, v *yaml.Node) bool {
			switch k.Value {
			case "input_schema":
				var schema map[string]any
				if yamlpos.DecodeInto(d, v, &schema) {
					t.InputSchema, _ = NormalizeYAML(schema).(map[string]any)
				}
			case "executor":
				if v.Kind != yaml.MappingNode {
					d.Errorf(yamlpos.Of(v), "%sexecutor is a step definition (kind cli, http or transform, and its fields)", prefix)
					return true
				}
				if s, ok := DecodeStep(d, v, prefix+"executor: "); ok {
					s.ID, s.owner, s.role = t.Name, "tool", "executor"
					t.Executor = s
					if _, known := kindOf(s.Type); !known {
						reportUnknownKind(d, s.At("type"), s.Subject(), "kind", s.Type, toolKindNames())
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
