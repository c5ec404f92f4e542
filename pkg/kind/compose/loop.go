package compose

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"reflect"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// LoopFields configure a loop step (OCC's `type: loop`): its
// step_template runs once per item, as a for_each step does, and the
// output is the list of the items' outputs, in item order.
type LoopFields struct {
	ItemsVar     string      `yaml:"items_var" doc:"The variable holding a loop's items (input.x or a step's output_var): a JSON array, else one item per line, else one per comma."`
	ItemsStatic  []string    `yaml:"items_static" doc:"A loop's items written in the file; items_var is then not read."`
	StepTemplate *chain.Step `yaml:"step_template" doc:"The step a loop runs per item (any kind, agent by default; no id, output_var or depends_on); it reads {item}, {item_index} and {loop_total}, and its pre_tools run per item."`
	MaxParallel  int         `yaml:"max_parallel" doc:"Most items of a loop running at once (default: all, within --max-parallel)."`
	LoopUntil    string      `yaml:"loop_until" doc:"Expression over {loop_result} (the outputs so far, in item order): once it holds, no further item starts."`
	LoopOnError  string      `yaml:"loop_on_error" doc:"abort (default): a failed item fails the loop; continue: its output is \"[ERROR: ...]\" and the loop goes on."`
}

// LoopLocals are the names a loop's step_template reads besides the run's
// variables.
var LoopLocals = []string{"item", "item_index", "loop_total"}

// LoopOnContinue is the loop_on_error that keeps a loop going past a
// failed item.
const LoopOnContinue = "continue"

func init() {
	chain.Register(chain.Unit{
		Kind:   chain.KindLoop,
		Nested: func(s *chain.Step) []*chain.Step { return []*chain.Step{Loop(s).StepTemplate} },
		Decode: map[string]chain.KeyDecoder{"step_template": func(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) bool {
			decodeStepTemplate(d, s, v, prefix)
			return true
		}},
		Schema:  map[string]any{"step_template": map[string]any{"type": "object"}, "loop_on_error": map[string]any{"enum": []string{"abort", LoopOnContinue}}},
		Order:   160,
		Body:    reflect.TypeFor[LoopFields](),
		Also:    []string{"prompt", "model", "tools"},
		Models:  true,
		Check:   checkLoop,
		Compile: compileLoop,
	})
}

// decodeStepTemplate reads a loop's step_template: a step.
func decodeStepTemplate(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) {
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%sstep_template is a step: a mapping with its type and fields", prefix)
		return
	}
	chain.Own[LoopFields](s).StepTemplate, _ = chain.DecodeStep(d, v, prefix+"step_template: ")
}

func checkLoop(v chain.Checker, s *chain.Step) {
	switch {
	case Loop(s).ItemsVar == "" && Loop(s).ItemsStatic == nil:
		v.Errorf(s.Pos, "%s: a loop step needs its items: items_var (a variable holding them) or items_static (a list)", s.Subject())
	case Loop(s).ItemsStatic != nil && Loop(s).ItemsVar != "":
		v.Warnf(s.At("items_var"), "%s: items_var is not read: items_static gives the items", s.Subject())
	}
	if _, set := s.FieldPos["max_parallel"]; set && Loop(s).MaxParallel < 1 {
		v.Errorf(s.At("max_parallel"), "%s: max_parallel must be 1 or more", s.Subject())
	}
	if Loop(s).LoopOnError != "" && Loop(s).LoopOnError != "abort" && Loop(s).LoopOnError != LoopOnContinue {
		v.Errorf(s.At("loop_on_error"), "%s: loop_on_error is abort or continue, not %q", s.Subject(), Loop(s).LoopOnError)
	}
	if s.ForEach != "" {
		v.Errorf(s.At("for_each"), "%s: a loop step gives its items with items_var or items_static, not for_each", s.Subject())
	}
	t := Loop(s).StepTemplate
	if t == nil && s.Agent().Prompt != "" {
		// OCC runs a loop without step_template as its own prompt per item
		t = &chain.Step{Pos: s.Pos, FieldPos: map[string]chain.Pos{}}
		chain.Own[LoopFields](s).StepTemplate = t
	}
	if t == nil {
		v.Errorf(s.Pos, "%s: step_template is required for a loop step (the step run per item), or a prompt, run per item as an agent", s.Subject())
		return
	}
	if t.Type == "" {
		// OCC's default kind
		t.Type, t.FieldPos["type"] = string(chain.KindAgent), t.Pos
	}
	// OCC's loop lends the template its prompt, model and tools
	if t.Agent().Prompt == "" && s.Agent().Prompt != "" {
		chain.Own[chain.AgentFields](t).Prompt = s.Agent().Prompt
	}
	if t.Agent().Model == "" {
		chain.Own[chain.AgentFields](t).Model = s.Agent().Model
	}
	if _, set := t.FieldPos["tools"]; !set && t.Agent().Tools == nil {
		chain.Own[chain.AgentFields](t).Tools = s.Agent().Tools
	}
	t.SetLocals(LoopLocals)
	v.Nest(s, t, s.Subject()+" step_template", s.ID+"[*]")
}

func compileLoop(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	if Loop(s).ItemsStatic == nil && Loop(s).ItemsVar != "" {
		name := strings.TrimSpace(strings.Trim(strings.TrimSpace(Loop(s).ItemsVar), "{}"))
		r, ok := chain.ParseRef(name)
		if !ok {
			v.Errorf(s.At("items_var"), "%s: items_var names one variable, as in items_var: input.list or items_var: results", s.Subject())
		} else {
			v.Ref(s, "items_var", r)
			c.ForEach = chain.ParseTemplate(r.Raw)
		}
	}
	if Loop(s).LoopUntil != "" {
		s.SetLocals([]string{"loop_result"})
		c.LoopUntil = v.Expression(s, "loop_until", Loop(s).LoopUntil, false, true)
		s.SetLocals(nil)
	}
	if t := Loop(s).StepTemplate; t != nil && t.Kind != "" {
		v.Compile(t)
	}
}

// Loop is the step's LoopFields, a shared zero value when it has none (read
// only; write through Own).
func Loop(s *chain.Step) *LoopFields { return chain.Part[LoopFields](s) }
