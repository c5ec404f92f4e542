// Package dag is a generic dependency graph: building it from nodes and
// their dependencies, reporting a cycle as a path, computing waves for
// display, and running the nodes in parallel the moment their
// dependencies are done, on goroutines kept for the next visit (and a
// pool of such workers for other jobs, Workers).
//
// It knows nothing of chains, steps or processes. It imports nothing of
// this module.
package dag
