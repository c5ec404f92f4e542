package record

import (
	"github.com/chainrun/chainrun/pkg/chain"
)

// WorkflowOutput is a workflow step's output: with use, the called workflow's
// final context keys use.outputs read, by their names there; without,
// its whole final context.
func WorkflowOutput(s *chain.Step, res *Result) any {
	var final map[string]any
	if res.WorkflowResult != nil {
		final = res.Context
	}
	if s.Workflow().Use == nil {
		if final == nil {
			return map[string]any{}
		}
		return final
	}
	out := map[string]any{}
	for _, b := range s.Outputs() {
		out[b.From] = final[b.From]
	}
	return out
}
