package catalog

// A chain that cannot be found stops a command before anything runs:
// these errors say so, and the CLI maps them to exit 2.

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *NotFoundError) NothingRan() bool { return true }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *DirError) NothingRan() bool { return true }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *AmbiguousError) NothingRan() bool { return true }
