// Package model holds the step kinds that ask a model: OCC's router and
// evaluator as model unit (KIND.go: body, checks, compile, registered with
// chain.Register) and run unit (KIND_run.go, registered with
// run.Register), and the agent kind's run unit (its answer, tool loop and
// guardrails), whose body stays in pkg/chain as the model call other kinds
// share. A router tells the DAG driver what its route leaves out
// (Runner.Route), an evaluator what to run again (Runner.Again), so the
// engine names neither. They reach models, prompts and the answer cache
// only through run.Attempt and the rules a model step asks with
// (pkg/run/ask), and run their tool calls through pkg/run/toolcall. A
// model unit imports only chain, interp and yamlpos. It may import, of
// this module: chain, event, guard, interp, llm, run, run/ask, run/given,
// run/record, run/toolcall, yamlpos.
package model
