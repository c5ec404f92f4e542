// Package model holds the run units of the step kinds that ask a model:
// agent (its answer, tool loop and guardrails), and OCC's router and
// evaluator, which ask through the agent kind. Each registers with
// run.Register in its init and reaches models, prompts, the answer cache
// and tools only through run.Attempt. Their model units are in pkg/chain.
// It may import, of this module: chain, event, guard, llm, run,
// run/ask, run/given.
package model
