// Package task holds what travels between a durable engine (Temporal)
// and the local engine whose drivers it runs: Remote, the seam the
// engine's DAG and workflow drivers call to run a step elsewhere; a step
// as a task (StepTask: the step, the run's variables as TaskValues, the
// budget left) and what the task did (StepDone); which steps the driver
// decides itself (InWorkflow) and whose retries the durable engine makes
// (RetriedByEngine). They are plain values that cross a process and a
// replay, kept apart from the engine so that a durable engine's workflow
// code meets none of its machinery.
//
// It must not import run or any package that runs a step. It may import,
// of this module: chain, dag, event, run/record.
package task
