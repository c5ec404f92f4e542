package wfcheck

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// compilePrefill compiles a transition's prefill: a value that is a
// JSONPath ($.context.x, $.workflow.input.x, $.input.x) is read when a
// decision takes the transition, as mcp-flowgate reads its prefill
// against the run when it offers the link; the rest is literal.
func (v *checker) compilePrefill(t *chain.Transition) {
	if len(t.Prefill) == 0 {
		return
	}
	m, err := interp.CompileMapped(t.Prefill, false)
	if err != nil {
		v.d.Errorf(t.At("prefill"), "transition %q: prefill: %v", t.Name, err)
		return
	}
	t.SetPrefill(m)
}
