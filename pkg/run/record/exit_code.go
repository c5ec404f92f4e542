package record

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// FailedStep is the step (or a workflow's executor or task) whose failure
// failed the run, c's (nil: the result alone says), and false when no
// step's did: the run did not fail, or failed with no step failing (no
// viable transition, a budget). In a DAG it is the one the error names:
// steps cancelled because of it failed too and are not the cause; a step
// under continue_on_error is never the cause. Views point at it, and the
// exit code can be its command's (CommandExitCode).
func (r *Result) FailedStep(c *chain.Chain) (StepResult, bool) {
	if r.Status != Failed {
		return StepResult{}, false
	}
	dag := c == nil && r.WorkflowResult == nil || c != nil && c.Workflow == nil
	found := -1
	for i, s := range r.Steps {
		if s.Status != StepFailed {
			continue
		}
		if dag && strings.HasPrefix(r.Error, "step "+s.ID+" failed:") {
			return s, true
		}
		if c != nil {
			if st := c.Step(s.ID); st != nil && st.ContinueOnError {
				continue
			}
		}
		if dag && found >= 0 {
			continue // keep the first: the others were cancelled by it
		}
		found = i
	}
	if found < 0 {
		return StepResult{}, false
	}
	return r.Steps[found], true
}

// CommandExitCode is the exit status of the command whose failure failed
// the run: the failed step's process (cli and shell steps) exited with it.
// 0 when the run did not fail that way: no step failed, the failed step
// runs no command, or its command was killed by a signal (a timeout).
// Only a result of this process knows it: a saved result does not keep it.
func (r *Result) CommandExitCode(c *chain.Chain) int {
	s, ok := r.FailedStep(c)
	if !ok {
		return 0
	}
	return s.ExitCode
}
