// Package basic holds the step kinds that need no model and no network:
// cli (and shell), file, transform, noop and gate, each as its model unit
// (KIND.go: its body, what it requires, what it compiles, registered with
// chain.Register) and its run unit (KIND_run.go, registered with
// run.Register and written against run.Attempt only), so neither the chain
// format nor the engine knows them by name. The run units of script and
// human are here too; their bodies stay in pkg/chain, as the scripts
// library and a workflow's queues are the core's. Commands and file reads
// are pkg/run/proc's, which pre_tools share. A model unit imports only
// chain, interp and yamlpos. It may import, of this module: chain, event,
// executor, interp, run, run/proc, run/record, run/response, yamlpos.
package basic
