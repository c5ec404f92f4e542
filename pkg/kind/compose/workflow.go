package compose

import (
	"reflect"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A workflow step runs another state workflow as part of the run
// (chain.WorkflowFields, whose use.outputs the engine reads: Step.Outputs).
func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindWorkflow,
		Order:   120,
		Body:    reflect.TypeFor[chain.WorkflowFields](),
		Check:   checkWorkflowStep,
		Compile: compileWorkflowStep,
	})
}

// checkWorkflowStep requires the workflow a step runs, and use.outputs
// written as "$.context.KEY": NAME.
func checkWorkflowStep(v chain.Checker, s *chain.Step) {
	if s.Workflow().DefinitionID == "" {
		v.Errorf(s.Pos, "%s: definitionId is required for a workflow step (the workflow it runs)", s.Subject())
	}
	if s.Workflow().Use != nil && s.Workflow().Input != nil {
		v.Errorf(s.At("input"), "%s: set use (inputs and outputs) or input, not both", s.Subject())
	}
	if s.Workflow().Use == nil {
		if chain.NamesCapability(s.Workflow().DefinitionID) {
			// mcp-flowgate's validate refuses it (V12, MISSING_USE); its
			// runtime, and its own multi-repo fixture, run it: a warning
			v.Warnf(s.At("definitionId"), "%s: definitionId %s is a capability (cap.*): a kind: workflow step invokes one through use: {inputs, outputs}, the binding of its snippet (mcp-flowgate's validate refuses it without: MISSING_USE); without use, the capability's whole final context is the step's output", s.Subject(), s.Workflow().DefinitionID)
		}
		return
	}
	keys := make([]string, 0, len(s.Workflow().Use.Outputs))
	for k := range s.Workflow().Use.Outputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key, ok := strings.CutPrefix(strings.TrimSpace(k), "$.context.")
		if !ok || !chain.IsIdentifier(key) {
			v.Errorf(s.At("use"), "%s: use.outputs %q: write the context key it sets as \"$.context.KEY\"", s.Subject(), k)
			continue
		}
		if s.Workflow().Use.Outputs[k] == "" {
			v.Errorf(s.At("use"), "%s: use.outputs %q: name the called workflow's context key it reads", s.Subject(), k)
		}
	}
}

// compileWorkflowStep reads the inputs the called workflow is given
// (use.inputs, else input).
func compileWorkflowStep(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	in := s.Workflow().Input
	if s.Workflow().Use != nil {
		in = s.Workflow().Use.Inputs
	}
	if in == nil {
		in = map[string]any{}
	}
	c.Inputs = v.Mapped(s, "use", in)
	if c.Inputs == nil {
		c.Inputs = &chain.Mapped{Map: map[string]*chain.Mapped{}}
	}
}
