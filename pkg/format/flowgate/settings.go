package flowgate

import (
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// decodeSettings reads a workflow file's flowgate: block for the
// one setting a runner honours, authoring.write_enabled (whether registry
// steps may publish); the gateway's other settings are ignored, said so.
func decodeSettings(d *yamlpos.Diags, k, v *yaml.Node) bool {
	ignored := func(at *yaml.Node, key string) {
		d.Warnf(yamlpos.Of(at), "%s: the gateway's own setting is ignored: it configures an mcp-flowgate gateway, not a run", key)
	}
	if v.Kind != yaml.MappingNode {
		ignored(k, "flowgate")
		return false
	}
	enabled := false
	for _, p := range yamlpos.MappingPairs(d, v, "flowgate: ") {
		a := yamlpos.Deref(p.Value)
		if p.Key.Value != "authoring" || a.Kind != yaml.MappingNode {
			ignored(p.Key, "flowgate."+p.Key.Value)
			continue
		}
		for _, q := range yamlpos.MappingPairs(d, a, "flowgate.authoring: ") {
			if q.Key.Value != "write_enabled" {
				ignored(q.Key, "flowgate.authoring."+q.Key.Value)
				continue
			}
			w := yamlpos.Deref(q.Value)
			if err := w.Decode(&enabled); err != nil || w.Tag != "!!bool" {
				d.Errorf(yamlpos.Of(w), "flowgate.authoring.write_enabled is true or false, not %q", w.Value)
			}
		}
	}
	return enabled
}
