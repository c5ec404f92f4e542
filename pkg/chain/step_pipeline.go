package chain

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// PipelineFields configure a pipeline step (mcp-flowgate's `kind:
// pipeline` executor): its steps, each of any kind, run one after another
// inside one step, so a transition that builds, tests and publishes is one
// transition and one record. Each step reads the output of the last one
// that succeeded as $.arguments (the first reads the decision's
// arguments); on_step_failure says whether a failed step stops the rest.
// Its output is {steps: [{ok, index, output|error}], final_output,
// summary: {n, ok_count, failed_count, first_failure_index, verdict,
// durationMs}}.
type PipelineFields struct {
	Steps         []*Step `yaml:"steps" doc:"The pipeline's steps, each a step of any kind, run one after another; each reads the output of the last one that succeeded as $.arguments ({arguments.x}), the first the decision's arguments."`
	OnStepFailure string  `yaml:"on_step_failure" doc:"bail (default): the first failed step stops the pipeline; continue: the steps after it still run, reading the output of the last step that succeeded. Either way a failed step fails the pipeline."`
}

// PipelineLocals are the names the steps of a pipeline read besides the
// run's: arguments, the output of the step before.
var PipelineLocals = []string{"arguments"}

// DecodeNested reads a step written inside a parallel or pipeline step,
// with the evidence: it records once it succeeded; what names it in
// messages ("a branch").
func DecodeNested(d *yamlpos.Diags, n *yaml.Node, prefix, what string) *Step {
	if n.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(n), "%s%s is a step: a mapping with kind and its fields", prefix, what)
		return nil
	}
	n, ev := takeEvidence(d, n, prefix)
	n, rel := takeKey(n, "reliability")
	b, _ := DecodeStep(d, n, prefix)
	b.Evidence = ev
	if rel != nil {
		// mcp-flowgate runs each branch and pipeline step under its own
		// policy (parallel.rs, pipeline.rs)
		decodeReliability(d, func(n *yaml.Node, i int, prefix string) *Step {
			return DecodeNested(d, n, prefix, "a fallback")
		}, b, yamlpos.Deref(rel), prefix)
	}
	return b
}
