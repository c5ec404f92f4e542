// Package proc holds the two primitives that reach the machine a step
// runs on, shared by the kinds that run them (cli, script, file) and by
// pre_tools: RunCommand (a process, argv or a run: script, its output
// kept or spilled, its PID saved with the run) and ReadFile (a file, up
// to the in-memory cap, under the step's directory when confined).
// Written against run.Attempt alone, they need nothing of the engine's
// inside, so they live above pkg/run rather than in it.
//
// It must not be imported by pkg/run. It may import, of this module:
// chain, event, executor, interrupt, run, run/confine.
package proc
