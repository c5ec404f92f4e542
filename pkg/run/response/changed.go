package response

import "fmt"

// ChangedError is a workflow whose file no longer has the state its
// saved transitions left the run at (a workflow of another file that a
// workflow step went into, edited since): nothing ran.
type ChangedError struct{ Workflow, File, State string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("workflow %s (%s) no longer has state %s, where the run stands inside it: restore the file, or start a new run", e.Workflow, e.File, e.State)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *ChangedError) NothingRan() bool { return true }
