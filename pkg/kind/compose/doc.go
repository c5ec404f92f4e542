// Package compose holds the step kinds made of other steps: parallel,
// pipeline, and OCC's loop, merge, debate and subchain (a chain step under
// another name), each as its model unit (KIND.go: its checks, compile and
// the keys it decodes itself, registered with chain.Register) and its run
// unit (KIND_run.go, registered with run.Register); and the run units of
// chain and workflow, whose bodies stay in pkg/chain, as the engine's
// preflight resolves what they call. A parallel's and a pipeline's fields
// stay in pkg/chain too: the core walks the steps they hold. They run
// their inner steps, chains and workflows through run.Attempt (RunInner,
// FanOut, Ask, RunChain, RunWorkflow), so the engine keeps their attempts
// and journal lines as a step's; a kind names the steps it holds with
// Unit.Nested. How OCC's loop reads its list (a JSON object's values, a
// scalar, a line's commas) is this package's: the engine's SplitItems
// knows only arrays and a separator. A model unit imports only chain,
// interp and yamlpos. It may import, of this module: chain, interp, run,
// run/given, run/record, run/response, yamlpos.
package compose
