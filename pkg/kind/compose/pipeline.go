package compose

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

func init() {
	chain.Register(chain.Unit{
		Kind: chain.KindPipeline,
		Decode: map[string]chain.KeyDecoder{"steps": func(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) bool {
			decodePipelineSteps(d, s, v, prefix)
			return true
		}},
		Schema: map[string]any{
			"steps":           map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"type": "object"}},
			"on_step_failure": map[string]any{"enum": []string{chain.OnFailureBail, chain.OnFailureContinue}},
		},
		Nested:  func(s *chain.Step) []*chain.Step { return s.Pipeline().Steps },
		Order:   110,
		Body:    reflect.TypeFor[chain.PipelineFields](),
		Also:    []string{"total_timeout_ms"},
		Check:   checkPipeline,
		Compile: compilePipeline,
	})
}

// decodePipelineSteps reads a pipeline step's steps: a list of steps,
// each with its evidence: (what it records once it succeeded).
func decodePipelineSteps(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) {
	prefix += "steps: "
	if v.Kind != yaml.SequenceNode {
		d.Errorf(yamlpos.Of(v), "%ssteps is a list of steps, each a mapping with kind and its fields", prefix)
		return
	}
	chain.Own[chain.PipelineFields](s).Steps = []*chain.Step{}
	for _, n := range v.Content {
		if b := chain.DecodeNested(d, yamlpos.Deref(n), prefix, "a pipeline's step"); b != nil {
			chain.Own[chain.PipelineFields](s).Steps = append(s.Pipeline().Steps, b)
		}
	}
}

func checkPipeline(v chain.Checker, s *chain.Step) {
	switch {
	case s.Pipeline().Steps == nil:
		v.Errorf(s.Pos, "%s: steps are required for a pipeline step (a list of steps run one after another)", s.Subject())
	case len(s.Pipeline().Steps) == 0:
		v.Errorf(s.At("steps"), "%s: steps is empty: a pipeline step needs at least one", s.Subject())
	}
	if s.Pipeline().OnStepFailure != "" && s.Pipeline().OnStepFailure != chain.OnFailureBail && s.Pipeline().OnStepFailure != chain.OnFailureContinue {
		v.Errorf(s.At("on_step_failure"), "%s: on_step_failure is bail or continue, not %q", s.Subject(), s.Pipeline().OnStepFailure)
	}
	totalTimeout(v, s)
	s.SetLocals(chain.PipelineLocals)
	for i, b := range s.Pipeline().Steps {
		v.Nest(s, b, fmt.Sprintf("%s step %d", s.Subject(), i+1), s.ID+"["+strconv.Itoa(i)+"]")
	}
	v.PipelineKeys(s)
}

// totalTimeout checks the time limit of a whole parallel or pipeline
// step.
func totalTimeout(v chain.Checker, s *chain.Step) {
	if _, set := s.FieldPos["total_timeout_ms"]; set && s.Parallel().TotalTimeoutMS < 1 {
		v.Errorf(s.At("total_timeout_ms"), "%s: total_timeout_ms must be 1 or more", s.Subject())
	}
	if s.Parallel().TotalTimeoutMS > chain.MaxTimeoutMS {
		v.Errorf(s.At("total_timeout_ms"), "%s: total_timeout_ms %d is more than %d (7 days)", s.Subject(), s.Parallel().TotalTimeoutMS, chain.MaxTimeoutMS)
	}
}

func compilePipeline(v chain.Checker, s *chain.Step, _ *chain.Compiled) {
	for _, b := range s.Pipeline().Steps {
		if b.Kind != "" {
			v.Compile(b)
		}
	}
}
