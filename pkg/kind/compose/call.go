package compose

import (
	"reflect"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A chain step runs another chain with inputs (chain.CallFields, which
// the engine's preflight reads too); its output is that chain's result.
func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindChain,
		Order:   70,
		Body:    reflect.TypeFor[chain.CallFields](),
		Check:   checkCall,
		Compile: compileCall,
	})
}

// checkCall checks a chain step. A pipeline entry's summarize_output:
// true asks a model (the run's) for the summary it passes on: its model
// step is made and compiled with the step.
func checkCall(v chain.Checker, s *chain.Step) {
	if chain.Call(s).Chain == "" {
		v.Errorf(s.Pos, "%s: chain is required for a chain step (the name of the chain to call)", s.Subject())
	}
	if s.Summarized() {
		chain.SetModelStep(s, v.NewModelStep(s, chain.PipeSummaryPrompt+"{chain_output}"))
		s.ModelStep().SetLocals(chain.PipeSummaryLocals)
	}
}

// compileCall parses the inputs a chain step gives, and its summary's
// model step.
func compileCall(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	c.With = v.Templates(s, "with", chain.Call(s).With)
	if s.ModelStep() != nil {
		v.Compile(s.ModelStep())
	}
}
