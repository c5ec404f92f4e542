// Package compose holds the step kinds made of other steps: OCC's loop,
// merge and debate as model unit (KIND.go) and run unit (loop_merge_debate_run.go),
// and the run units of parallel, pipeline, chain and OCC's subchain, and
// workflow, whose bodies stay in pkg/chain as the core nests and calls
// through them. They run their inner steps, chains and workflows through
// run.Attempt (RunInner, FanOut, Ask, RunChain, RunWorkflow), so the
// engine keeps their attempts and journal lines as a step's; a kind names
// the steps it holds with Unit.Nested. A model unit imports only chain,
// interp and yamlpos. It may import, of this module: chain, interp, run,
// yamlpos.
package compose
