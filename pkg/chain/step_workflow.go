package chain

import (
	"sort"
	"strings"
)

// WorkflowFields configure a workflow step (mcp-flowgate's `kind:
// workflow` executor): it runs another state workflow, found by
// definitionId, as part of the run. use.inputs are the inputs it is
// given; use.outputs copy keys of its final context into this
// workflow's context. Without use, input: gives its inputs and its whole
// final context is the step's output.
type WorkflowFields struct {
	DefinitionID string         `yaml:"definitionId" doc:"The workflow a workflow step runs: one of the same file, else of the chains directory (and its subdirectories, the nearest to this file first)."`
	Use          *WorkflowUse   `yaml:"use" doc:"use: {inputs, outputs}: the inputs the workflow is given, and the context keys copied back when it ends."`
	Input        map[string]any `yaml:"input" doc:"The inputs the workflow is given (without use:); its final context is then the step's output."`
}

// WorkflowUse is a workflow step's binding of the workflow it runs
// (mcp-flowgate's capability invocation).
type WorkflowUse struct {
	// Inputs name the called workflow's inputs; each value a JSONPath
	// ($.context.x, $.arguments.x, $.workflow.input.x) or a literal.
	Inputs map[string]any `yaml:"inputs" doc:"The called workflow's inputs: each a JSONPath into this run ($.context.x, $.arguments.x, $.workflow.input.x) or a literal."`
	// Outputs map a context path of this workflow ($.context.KEY) to a
	// key of the called workflow's final context.
	Outputs map[string]string `yaml:"outputs" doc:"\"$.context.KEY\": NAME sets this workflow's context KEY to the called workflow's final context NAME when it ends."`
}

// Binding is one use.outputs entry: the caller's context key set from the
// called workflow's final context key.
type Binding struct {
	Key, From string
}

// namesCapability reports whether a definitionId names a capability
// workflow (cap.*, also under a repository's namespace: ns/cap.*).
func namesCapability(id string) bool {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return strings.HasPrefix(id, "cap.")
}

// Outputs are the step's use.outputs, sorted by the key they set; nil
// without use (the whole final context is then the step's output).
func (s *Step) Outputs() []Binding {
	if s.Workflow().Use == nil {
		return nil
	}
	out := make([]Binding, 0, len(s.Workflow().Use.Outputs))
	for k, from := range s.Workflow().Use.Outputs {
		key, _ := strings.CutPrefix(strings.TrimSpace(k), "$.context.")
		out = append(out, Binding{Key: key, From: from})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
