// Package interrupt turns the signals that stop chainrun into the
// cancellation of what it runs: the first cancels a context (the run
// stops, each step's process group given its grace period), the second
// closes the context's force channel (the process groups are killed at
// once), and any after that is the system's. It also keeps SIGPIPE from
// killing the process: a write to a closed pipe fails instead.
//
// It imports nothing of this module.
package interrupt
