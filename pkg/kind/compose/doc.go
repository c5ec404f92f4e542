// Package compose holds the run units of the step kinds made of other
// steps: parallel, pipeline, chain and OCC's subchain, workflow, and
// OCC's loop, merge and debate. They run their inner steps, chains and
// workflows through run.Attempt (RunInner, FanOut, Ask, RunChain,
// RunWorkflow), so the engine keeps their attempts and journal lines as
// a step's. How OCC's loop reads its list (a JSON object's values, a
// scalar, a line's commas) is this package's: the engine's SplitItems
// knows only arrays and a separator. Their model units are in pkg/chain. It may import, of this
// module: chain, run.
package compose
