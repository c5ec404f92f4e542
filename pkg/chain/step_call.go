package chain

import "reflect"

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
func (s *Step) WithField() string {
	if s.withKey == "" {
		return "with"
	}
	return s.withKey
}

var callKind = kindUnit{
	kind: KindChain,
	body: reflect.TypeFor[CallFields](),
	check: func(v *validator, s *Step) {
		if s.Chain == "" {
			v.d.errorf(s.Pos, "%s: chain is required for a chain step (the name of the chain to call)", s.subject())
		}
	},
	compile: func(v *validator, s *Step, c *Compiled) {
		c.With = v.templates(s, "with", s.With)
	},
}

// A pipeline entry's summarize_output: true asks a model (the run's) for
// the summary it passes on: its model step is made and compiled with the
// step (set here: the kinds' table cannot refer to itself).
func init() {
	check, compile := callKind.check, callKind.compile
	callKind.check = func(v *validator, s *Step) {
		check(v, s)
		if s.pipeSummary.summarize {
			s.modelStep = v.modelStep(s, PipeSummaryPrompt+"{chain_output}")
			s.modelStep.locals = PipeSummaryLocals
		}
	}
	callKind.compile = func(v *validator, s *Step, c *Compiled) {
		compile(v, s, c)
		if s.modelStep != nil {
			v.compile(s.modelStep)
		}
	}
}
