// Package proc holds the primitives that reach outside the engine,
// shared by the kinds that run them (cli, script, file, http, rest,
// webhook) and by pre_tools: RunCommand (a process, argv or a run:
// script, its values too big for the environment fed on pipes, its
// output kept or spilled, its PID saved with the run),
// ReadFile (a file, up to the in-memory cap, under the step's directory
// when confined) and SendRequest and Send (an HTTP request, its failure
// naming the endpoint and what set its URL).
// Written against run.Attempt alone, they need nothing of the engine's
// inside, so they live above pkg/run rather than in it.
//
// It must not be imported by pkg/run. It may import, of this module: chain,
// event, executor, interp, interrupt, llm, redact, run, run/confine,
// run/record, run/web.
package proc
