// Package flow is the driver of state workflows: it moves a run from
// state to state (drive.go), runs tasks, executors and onEnter as steps of
// the execution it drives, evaluates guards and evidence, asks decisions
// of an agent, a human or a script and pauses when nobody here can decide
// (decide.go), replays a run's saved transitions on resume (replay.go),
// runs a workflow step's workflow inside it (sub.go), and words the
// result and links of reference 000 (result.go). It registers with pkg/run
// in its init (run.RegisterWorkflowDriver), so the engine knows a
// workflow only as something a driver drives; pkg/builtin links it.
//
// It must not import pkg/kind, pkg/builtin, pkg/store or anything under
// cmd/. It may import, of this module: chain, chain/fileschema, event,
// guard, interp, llm, retry, run, run/given, run/record, run/response,
// tools.
package flow
