package chain

import (
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// workflowCheck is the checker of state workflows: pkg/chain/wfcheck
// registers it in its init, as pkg/run/flow registers the driver of
// their runs, so that the rules of states, transitions, branches and
// their links live in a package of their own and this one holds the
// model and the step validator they use.
var workflowCheck func(c WorkflowChecker)

// WorkflowChecker is what the checker of state workflows sees of the
// validation of one workflow: a Checker, as a kind's Check sees it, and
// the workflow's own parts of the validator (its variables, inputs,
// tools, transitions' conditions and arguments, the ids of its executors).
type WorkflowChecker struct{ Checker }

// RegisterWorkflowCheck sets the checker of state workflows, which every
// validation of a workflow calls with that workflow's WorkflowChecker.
// Only pkg/chain/wfcheck calls it; a second registration panics.
func RegisterWorkflowCheck(check func(c WorkflowChecker)) {
	if workflowCheck != nil {
		panic("chain: a checker of state workflows is registered twice")
	}
	workflowCheck = check
}

// validateWorkflow checks a state workflow and compiles its executors and
// tasks with the step validator (through the registered checker), so
// that every kind behaves as it does in a DAG chain.
func validateWorkflow(d *yamlpos.Diags, c *Chain, opts Options) {
	if workflowCheck == nil {
		d.Errorf(c.Pos, "workflow %q: this program links no checker of state workflows (pkg/chain/wfcheck)", c.Name)
		return
	}
	c.byID = map[string]*Step{}
	workflowCheck(WorkflowChecker{Checker{&validator{d: d, c: c, opts: opts, produce: map[string]*Step{}, wfVars: map[string]bool{}, toolSteps: map[*Step]bool{}}}})
}

// Diags is where the findings of the workflow being checked go.
func (c WorkflowChecker) Diags() *yamlpos.Diags { return c.v.d }

// Options are the options the workflow is validated with.
func (c WorkflowChecker) Options() Options { return c.v.opts }

// SetVar records name as a variable the workflow produces (a transition's
// or task's output, a compose's with_var, a counter): any step, condition
// or text of the workflow may read it.
func (c WorkflowChecker) SetVar(name string) { c.v.wfVars[name] = true }

// HasVar reports whether the workflow produces the variable name.
func (c WorkflowChecker) HasVar(name string) bool { return c.v.wfVars[name] }

// Vars are the variables the workflow produces, sorted (for did-you-mean).
func (c WorkflowChecker) Vars() []string { return interp.SortedKeys(c.v.wfVars) }

// Inputs checks the chain's inputs, as a DAG chain's are.
func (c WorkflowChecker) Inputs() { c.v.inputs() }

// ToolDefs checks the tools the chain defines for its agent steps.
func (c WorkflowChecker) ToolDefs() { c.v.toolDefs() }

// HasInput reports whether the chain declares an input of that name.
func (c WorkflowChecker) HasInput(name string) bool { return c.v.hasInput(name) }

// InputNames are the names of the chain's inputs (for did-you-mean).
func (c WorkflowChecker) InputNames() []string { return c.v.inputNames() }

// UndeclaredInput reports the input a JSONPath raw reads when the chain
// takes inputs it does not declare (a peer's lenient reading).
func (c WorkflowChecker) UndeclaredInput(raw string) (string, bool) { return c.v.undeclaredInput(raw) }

// UndeclaredInputNote says what a read of an undeclared input does,
// unset being what it shows as.
func (c WorkflowChecker) UndeclaredInputNote(name, unset string) string {
	return c.v.undeclaredInputNote(name, unset)
}

// NameCheck says why the workflow's texts and conditions cannot read the
// variable name, or "" when they can.
func (c WorkflowChecker) NameCheck(name string) string { return c.v.workflowCheck(nil, name) }

// Condition compiles a transition's condition: an expression reading the
// workflow's inputs, context and variables. An unknown name is an
// *interp.UnknownNamesError (NameCheck says why).
func (c WorkflowChecker) Condition(src string) (*Expression, error) {
	return interp.CompileExpression(src, scope{v: c.v}.has, true)
}

// Claim records s as the step of its id (an executor or task is named
// after its transition or state), returning the step that already held
// that id, or nil.
func (c WorkflowChecker) Claim(s *Step) *Step {
	if prev, dup := c.v.c.byID[s.ID]; dup {
		return prev
	}
	c.v.c.byID[s.ID] = s
	return nil
}

// workflowCheck is scope.check for a workflow: a state machine's order is
// only known at run time, so any variable the workflow produces anywhere
// may be read (a run that reads one before it is set fails, naming it).
func (v *validator) workflowCheck(s *Step, name string) string {
	if v.workflowHas(s, name) {
		return ""
	}
	return "no input, context, transition or task output, or compose variable is named " + name + didYouMean(name, interp.SortedKeys(v.wfVars))
}

// workflowHas is workflowCheck without the message, which is costly to
// build (every name an expression might mean is asked about).
func (v *validator) workflowHas(s *Step, name string) bool {
	switch {
	case name == "input", name == "context", name == "arguments", v.wfVars[name]:
		return true
	case s != nil && name == "item" && s.ForEach != "":
		return true
	case s != nil && s.fanned && (name == "item" || name == "branch"):
		return true // a parallel step's do:, run per item
	}
	if s != nil {
		for _, p := range s.PreTools {
			if p.InjectAs == name {
				return true
			}
		}
	}
	return false
}

// at returns where a workflow key was written, or fallback.
func (w *Workflow) at(field string, fallback Pos) Pos {
	if p, ok := w.FieldPos[field]; ok {
		return p
	}
	return fallback
}
