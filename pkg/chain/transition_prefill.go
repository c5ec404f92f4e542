package chain

import (
	"maps"

	"github.com/chainrun/chainrun/pkg/interp"
)

// compilePrefill compiles a transition's prefill: a value that is a
// JSONPath ($.context.x, $.workflow.input.x, $.input.x) is read when a
// decision takes the transition, as mcp-flowgate reads its prefill
// against the run when it offers the link; the rest is literal.
func (v *validator) compilePrefill(t *Transition) {
	if len(t.Prefill) == 0 {
		return
	}
	m, err := interp.CompileMapped(t.Prefill, false)
	if err != nil {
		v.d.Errorf(t.At("prefill"), "transition %q: prefill: %v", t.Name, err)
		return
	}
	t.prefill = m
}

// PrefillIn is the transition's prefill with its JSONPaths read in doc
// (a path that selects nothing gives null).
func (t *Transition) PrefillIn(doc map[string]any) map[string]any {
	if t.prefill == nil {
		return maps.Clone(t.Prefill)
	}
	out, _ := t.prefill.Resolve(doc).(map[string]any)
	return out
}
