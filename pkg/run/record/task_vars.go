package record

import "strings"

// The variables a contenox task chain's tasks share besides their
// outputs. The tasks (pkg/kind/contenox) set them and the state-workflow
// driver (pkg/run/flow) carries them from task to task and saves them
// with a transition, so their names are the engine's.
const (
	// PreviousOutput is the output of the task that ran before.
	PreviousOutput = "previous_output"
	// LastError is the error of the last task that failed.
	LastError = "last_error"
	// HookVar holds what the hooks of the running task recorded, until
	// the flow merges it into the context.
	HookVar = "#hooks"
)

// ChatVar is the variable that holds the conversation behind a task's
// output: no template can name it, and it is saved with the task.
func ChatVar(name string) string { return name + "#chat" }

// InternalVar reports whether a variable is the engine's own (a
// conversation, what hooks recorded), kept out of the result's vars.
func InternalVar(name string) bool { return strings.Contains(name, "#") }
