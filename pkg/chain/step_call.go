package chain

import (
	"fmt"
	"reflect"
)

// CallFields configure a chain step: it runs another chain with inputs
// and its output is that chain's result.
type CallFields struct {
	Chain string            `yaml:"chain" doc:"Name (or file) of the chain a chain step runs."`
	With  map[string]string `yaml:"with" doc:"Inputs given to the chain a chain step runs."`

	// withKey is the field the inputs were written in: with, or a
	// subchain's inputs.
	withKey string
}

// WithField is the field a chain step's inputs were written in, for
// messages: with, or inputs on OCC's subchain.
func WithField(s *Step) string {
	if Call(s).withKey == "" {
		return "with"
	}
	return Call(s).withKey
}

func init() {
	Register(Unit{
		Kind:    KindChain,
		Order:   70,
		Body:    reflect.TypeFor[CallFields](),
		Check:   checkCall,
		Compile: compileCall,
	})
}

// checkCall checks a chain step. A pipeline entry's summarize_output:
// true asks a model (the run's) for the summary it passes on: its model
// step is made and compiled with the step.
func checkCall(v Checker, s *Step) {
	if Call(s).Chain == "" {
		v.Errorf(s.Pos, "%s: chain is required for a chain step (the name of the chain to call)", s.Subject())
	}
	if s.pipeSummary.Summarize {
		SetModelStep(s, v.NewModelStep(s, PipeSummaryPrompt+"{chain_output}"))
		s.ModelStep().SetLocals(PipeSummaryLocals)
	}
}

func compileCall(v Checker, s *Step, c *Compiled) {
	c.With = v.Templates(s, "with", Call(s).With)
	if s.ModelStep() != nil {
		v.Compile(s.ModelStep())
	}
}

// Call is the step's CallFields, a shared zero value when it has none (read
// only; write through Own).
func Call(s *Step) *CallFields { return Part[CallFields](s) }

// subchainKind is OCC's `type: subchain`, a chain step under another
// name: chain names the chain, inputs (a mapping) are its with. It is
// checked as written and then becomes a chain step.
func init() {
	Register(Unit{
		Kind:    KindSubchain,
		Order:   180,
		Also:    []string{"chain", "with", "inputs", "prompt"},
		Ignored: []string{"model"},
		Check: func(v Checker, s *Step) {
			if s.Inputs().Inputs != nil {
				m, ok := s.Inputs().Inputs.(map[string]any)
				if !ok {
					v.Errorf(s.At("inputs"), "%s: a subchain's inputs are a mapping: the called chain's input names and their values", s.Subject())
				}
				if Call(s).With != nil {
					v.Errorf(s.At("inputs"), "%s: set inputs or with, not both", s.Subject())
				}
				Own[CallFields](s).With = map[string]string{}
				for k, x := range m {
					Own[CallFields](s).With[k] = textOfYAML(x)
				}
				Own[CallFields](s).withKey = "inputs"
			}
			s.Kind = KindChain
			checkCall(v, s)
		},
	})
}

// textOfYAML is a YAML scalar as the text an input takes.
func textOfYAML(x any) string {
	if str, ok := x.(string); ok {
		return str
	}
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}
