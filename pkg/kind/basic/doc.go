// Package basic holds the run units of the step kinds that need no model
// and no network: cli (and shell), script, file, transform, noop, human
// and gate. Each registers with run.Register in its init, written against
// run.Attempt only, so the engine knows no kind by name. Their model units
// are in pkg/chain. It may import, of this module: chain, event,
// executor, run, run/proc.
package basic
