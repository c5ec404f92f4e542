// Package run is the execution seam of chainrun. Engine is the interface
// cmd/ drives; Local is the first implementation, running a validated
// chain in this process. Engines report progress only through the event
// stream (package event) and return a Result; they never print.
//
// One execution runs every chain (execution.go: inputs, variables,
// journal, resume, result); a driver chooses what runs next: the DAG
// driver by dependencies (drive_dag.go), the driver of state workflows by
// their states and transitions (pkg/run/flow, registered through
// workflow_driver.go: this package never imports it). A step goes
// through one pipeline (step.go: condition, pre_tools, retry, timeout,
// guardrails, output); its pre_tools run through the runner pkg/run/pretool
// registers (pretool_hook.go), and each kind's body through the kind API
// (attempt*.go), registered from its package under pkg/kind, which this
// package never imports; a step with a handler (a contenox task chain's
// task) runs through the one runner pkg/kind/contenox registers
// (attempt_task.go), whatever its kind. Model steps ask through llm's
// decorators (models.go, attempt_model.go), under the rules pkg/run/ask
// holds (retry policy, answer cache key, guardrails).
//
// It must not import store, cobra, viper or anything under cmd/. It may
// import, of this module: cache, chain, dag, dotenv, event, executor,
// fsutil, guard, interp, interrupt, llm, mcpclient, redact, retry, run/ask,
// run/confine, run/given, run/mask, run/record, run/response, run/resume,
// run/task, run/web, tracectx.
package run
