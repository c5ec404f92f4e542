// Package toolcall answers a model's tool calls as a run answers them,
// for every kind whose model calls tools (an agent's tool loop, a contenox
// task chain's chat and hooks): the built-in tools and the chain's own
// (whose executor runs as a step, its arguments checked against the
// tool's schema), a call outside the step's tools run only when granted
// or allowed by the person at the terminal, and every call, grant and
// denial an audit event. Written against run.Attempt alone, it needs
// nothing of the engine's inside, so it lives above pkg/run rather than
// in it.
//
// It must not be imported by pkg/run. It may import, of this module: chain,
// event, interp, interrupt, llm, run, run/ask, run/given, run/record,
// tools.
package toolcall
