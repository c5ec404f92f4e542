package wfcheck

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/fileschema"
)

// argSchema compiles a transition's inputSchema, the JSON Schema of the
// arguments a decision taking it gives.
func (v *checker) argSchema(t *chain.Transition) {
	if t.InputSchema == nil {
		return
	}
	raw, _ := chain.NormalizeYAML(t.InputSchema).(map[string]any)
	if bad := fileschema.UnknownTypes(raw); bad != "" {
		// reported, and the schema still read for the other checks
		v.d.Errorf(t.At("inputSchema"), "transition %q: inputSchema: %s", t.Name, bad)
	}
	sch, rs, problem := fileschema.ResolveSchema(raw)
	if problem != "" {
		v.d.Errorf(t.At("inputSchema"), "transition %q: inputSchema %s", t.Name, problem)
		return
	}
	t.InputSchema, t.Prefill = raw, chain.NormalizeYAML(t.Prefill).(map[string]any)
	types := map[string]string{}
	for name, p := range sch.Properties {
		types[name] = fileschema.InputType(fileschema.LocalRef(sch, p))
	}
	t.SetArgs(rs, types, fileschema.NeededArgs(sch, t.Prefill), fileschema.PropSchemas(raw))
}
