package temporalrun

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

// outsideFile finds, before a run starts, what the chain workflow would
// have to read from files other than the run's: the workflow's code
// holds only the run's file (its text is the workflow's input), not the
// chains directory the workers read. A workflow that a transition's
// executor or a state's task runs must be one of the same file, and so
// must the script an acknowledgment guard asks for; a workflow step
// anywhere else (a DAG chain's, a branch's) runs on a worker and may
// name any. Such a workflow takes no timeout_ms either: the driver would
// time it on the wall clock, which no replay repeats.
func outsideFile(c *chain.Chain) error {
	seen := map[string]bool{}
	var visit func(c *chain.Chain) error
	visit = func(c *chain.Chain) error {
		if c.Workflow == nil || seen[c.Name] {
			return nil
		}
		seen[c.Name] = true
		for _, s := range c.Workflow.States {
			var runs []*chain.Step
			if s.Task != nil {
				runs = append(runs, s.Task)
			}
			for _, t := range s.Transitions {
				if t.Executor != nil {
					runs = append(runs, t.Executor)
				}
				if err := ackScripts(c, t); err != nil {
					return err
				}
			}
			for _, e := range runs {
				if e.Kind != chain.KindWorkflow {
					continue
				}
				if e.TimeoutMS > 0 {
					// the driver would time it on the wall clock, which
					// a replay of the workflow's code does not repeat
					return &RunError{fmt.Sprintf("%s:%s: %s: timeout_ms of a workflow that a transition or task runs is not kept on Temporal yet: give its steps timeouts of their own, or run with --engine local", c.File, e.At("timeout_ms"), e.Who())}
				}
				callee := c.Sibling(e.Workflow().DefinitionID)
				if callee == nil {
					return &RunError{fmt.Sprintf("%s:%s: %s: definitionId %s is not a workflow of this file: on Temporal, a workflow that a transition or task runs must be one of the run's own file (move it there, or run with --engine local)", c.File, e.At("definitionId"), e.Who(), e.Workflow().DefinitionID)}
				}
				if err := visit(callee); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return visit(c)
}

// ackScripts checks that the scripts t's acknowledgment guards ask for
// are in the file's scripts: library.
func ackScripts(c *chain.Chain, t *chain.Transition) error {
	for _, k := range chain.AckSubjectsOf(t) {
		if k.Kind == chain.AckScript && c.Scripts[k.Subject] == nil {
			return &RunError{fmt.Sprintf("%s:%s: transition %s: script_acknowledged %s: the script is not in this file's scripts: library: on Temporal, a script a guard asks for must be (add it there, or run with --engine local)", c.File, t.At("guards"), t.Name, k.Subject)}
		}
	}
	return nil
}
