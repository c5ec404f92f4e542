package store

// A saved run that cannot be found, is held by another process, or cannot
// be read stops a command before anything runs: exit 2.

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *NotFoundError) NothingRan() bool { return true }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *LockedError) NothingRan() bool { return true }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *CorruptError) NothingRan() bool { return true }
