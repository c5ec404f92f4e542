// Package reqparams holds an agent step's params: block as the chain
// writes it (seed, top_p, stop, penalties, reasoning_effort,
// max_output_tokens, extra) and the ranges a value must keep, so that
// pkg/chain refuses a bad value where it is written while pkg/run/ask
// turns the block into a model request's parameters. It holds no step
// and reads no file: a leaf below pkg/chain. It imports nothing of this
// module.
package reqparams
