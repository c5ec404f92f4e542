// Package record holds what a run leaves behind, as every engine, the
// saved runs, the MCP server and the views read it: the Result of a run
// and each step's StepResult (statuses, usage, output tails), and what a
// Journal saves as the run goes so that a resume can pick it up (a
// finished step's StepRecord and SavedValue, a workflow's
// TransitionRecord), with their forms on disk (text that is not UTF-8
// kept byte for byte), and what a step stopped while running says
// (StopCause, Stopped), and the names of the variables a contenox task
// chain saves beside its outputs (ChatVar, HookVar, InternalVar), and a
// workflow step's output read from its workflow's result
// (WorkflowOutput); and a step as --dry-run shows it, what a run would
// do (PlannedStep). They
// are plain values, kept apart from the engine
// so that a reader of a run's records meets none of the machinery that
// made them.
//
// It must not import run or any package that runs a step. It may import,
// of this module: chain, event, run/response.
package record
