package chain

import (
	"fmt"
	"reflect"
	"strconv"

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

func init() {
	Register(Unit{
		Kind:    KindPipeline,
		Order:   110,
		Body:    reflect.TypeFor[PipelineFields](),
		Also:    []string{"total_timeout_ms"},
		Check:   checkPipeline,
		Compile: compilePipeline,
	})
}

// decodePipelineSteps reads a pipeline step's steps: a list of steps,
// each with its evidence: (what it records once it succeeded).
func decodePipelineSteps(d *yamlpos.Diags, s *Step, v *yaml.Node, prefix string) {
	prefix += "steps: "
	if v.Kind != yaml.SequenceNode {
		d.Errorf(yamlpos.Of(v), "%ssteps is a list of steps, each a mapping with kind and its fields", prefix)
		return
	}
	Own[PipelineFields](s).Steps = []*Step{}
	for _, n := range v.Content {
		if b := decodeNested(d, yamlpos.Deref(n), prefix, "a pipeline's step"); b != nil {
			Own[PipelineFields](s).Steps = append(s.Pipeline().Steps, b)
		}
	}
}

// decodeNested reads a step written inside a parallel or pipeline step,
// with the evidence: it records once it succeeded; what names it in
// messages ("a branch").
func decodeNested(d *yamlpos.Diags, n *yaml.Node, prefix, what string) *Step {
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
			return decodeNested(d, n, prefix, "a fallback")
		}, b, yamlpos.Deref(rel), prefix)
	}
	return b
}

func checkPipeline(v Checker, s *Step) {
	switch {
	case s.Pipeline().Steps == nil:
		v.Errorf(s.Pos, "%s: steps are required for a pipeline step (a list of steps run one after another)", s.Subject())
	case len(s.Pipeline().Steps) == 0:
		v.Errorf(s.At("steps"), "%s: steps is empty: a pipeline step needs at least one", s.Subject())
	}
	if s.Pipeline().OnStepFailure != "" && s.Pipeline().OnStepFailure != OnFailureBail && s.Pipeline().OnStepFailure != OnFailureContinue {
		v.Errorf(s.At("on_step_failure"), "%s: on_step_failure is bail or continue, not %q", s.Subject(), s.Pipeline().OnStepFailure)
	}
	v.totalTimeout(s)
	s.SetLocals(PipelineLocals)
	for i, b := range s.Pipeline().Steps {
		v.Nest(s, b, fmt.Sprintf("%s step %d", s.Subject(), i+1), s.ID+"["+strconv.Itoa(i)+"]")
	}
	v.pipelineKeys(s)
}

// totalTimeout checks the time limit of a whole parallel or pipeline
// step.
func (v Checker) totalTimeout(s *Step) {
	if _, set := s.FieldPos["total_timeout_ms"]; set && s.Parallel().TotalTimeoutMS < 1 {
		v.Errorf(s.At("total_timeout_ms"), "%s: total_timeout_ms must be 1 or more", s.Subject())
	}
	if s.Parallel().TotalTimeoutMS > MaxTimeoutMS {
		v.Errorf(s.At("total_timeout_ms"), "%s: total_timeout_ms %d is more than %d (7 days)", s.Subject(), s.Parallel().TotalTimeoutMS, MaxTimeoutMS)
	}
}

func compilePipeline(v Checker, s *Step, _ *Compiled) {
	for _, b := range s.Pipeline().Steps {
		if b.Kind != "" {
			v.Compile(b)
		}
	}
}
