package chain

import (
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
		Check:   CheckCall,
		Compile: compileCall,
	})
}

// CheckCall checks a chain step. A pipeline entry's summarize_output:
// true asks a model (the run's) for the summary it passes on: its model
// step is made and compiled with the step.
func CheckCall(v Checker, s *Step) {
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

// SetWithKey says which field a chain step's inputs were written in, for
// messages (OCC's subchain writes them as inputs).
func (c *CallFields) SetWithKey(key string) { c.withKey = key }
