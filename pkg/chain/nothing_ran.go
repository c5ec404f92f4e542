package chain

// A chain that does not load stops a command before anything runs: this
// error says so, and the CLI maps it to exit 2.

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *ValidationError) NothingRan() bool { return true }
