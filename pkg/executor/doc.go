// Package executor runs the concrete work of deterministic steps: child
// processes (in their own process group, stopped with TERM then KILL),
// HTTP requests and file reads. Its inputs are already interpolated; it
// knows nothing of chains, variables or scheduling. It may import, of this
// module: redact.
package executor
