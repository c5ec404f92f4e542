package task

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Remote lets a durable engine (Temporal) drive a run with this engine's
// drivers while each step's body runs elsewhere: the drivers (what runs
// next, conditions, routes, early exits, gates, states and decisions)
// run in the durable engine's workflow code, which must replay the same
// way every time, and each step in one of its activities (RunTask). The
// run's saved state is then the durable engine's, not a journal's.
type Remote struct {
	// Runner runs the DAG driver's ready steps at once (the workflow's
	// coroutines instead of goroutines); ctx is the driver's.
	Runner func(ctx context.Context) dag.Runner
	// Step runs one step elsewhere and reports what it did. It is called
	// from one of Runner's visits (or from the flow driver) with that
	// visit's ctx.
	Step func(ctx context.Context, t StepTask) StepDone
}

// StepTask is one step to run where its durable engine chooses: the
// chain's step and the run's variables as they were when it was ready.
type StepTask struct {
	// RunID is the run's id; a workflow a step runs in the driver (a
	// sub-workflow) extends it with /STEP.
	RunID string `json:"run_id"`
	// Chain names the chain of the run's file that holds the step: the
	// run's own, or a workflow of the same file that a workflow step
	// runs.
	Chain string `json:"chain,omitempty"`
	Step  string `json:"step"`
	// Note is an evaluation fed back to the step's prompt (evaluator
	// retries).
	Note   string            `json:"note,omitempty"`
	Inputs map[string]string `json:"inputs,omitempty"`
	// Typed are a workflow's inputs as its inputSchema types them.
	Typed map[string]any       `json:"typed,omitempty"`
	Vars  map[string]TaskValue `json:"vars,omitempty"`
	// MaxTokens, MaxCalls and MaxCostUSD are what the run's budget has
	// left when the step starts (0: no cap).
	MaxTokens  int     `json:"max_tokens,omitempty"`
	MaxCalls   int     `json:"max_calls,omitempty"`
	MaxCostUSD float64 `json:"max_cost_usd,omitempty"`
	// Attempt, when set, runs that one attempt of a step whose retries
	// the durable engine makes (Retries).
	Attempt int `json:"attempt,omitempty"`
	// Fallback, when set, runs that fallback executor of the step (1 for
	// the first), which shares the step's id (TaskStep).
	Fallback int `json:"fallback,omitempty"`
}

// TaskStep is the step of c a task names: the step of its id, or that
// step's fallback executor; nil when c has none such.
func TaskStep(c *chain.Chain, t StepTask) *chain.Step {
	s := c.Step(t.Step)
	if s == nil || t.Fallback == 0 {
		return s
	}
	if t.Fallback < 0 || t.Fallback > len(s.Fallbacks) {
		return nil
	}
	return s.Fallbacks[t.Fallback-1]
}

// TaskValue is a variable's value as it travels to and from a task.
type TaskValue struct {
	Text string `json:"text"`
	Data any    `json:"data,omitempty"`
	JSON bool   `json:"json,omitempty"`
	// Parsed says that Data is the text read as JSON (a command's JSON
	// output, numbers float64), not a value computed (a transform's,
	// whole numbers int): JSON on the way loses that difference.
	Parsed bool `json:"parsed,omitempty"`
}

// StepDone is what a task did: the step's result, the variables it set
// and the events it emitted, in order.
type StepDone struct {
	Result    record.StepResult    `json:"result"`
	EarlyExit bool                 `json:"early_exit,omitempty"`
	Vars      map[string]TaskValue `json:"vars,omitempty"`
	Events    []event.Event        `json:"events,omitempty"`
	Warnings  []string             `json:"warnings,omitempty"`
	Refused   bool                 `json:"refused,omitempty"`
	// Retry says that the failed attempt (StepTask.Attempt) may be
	// tried again: the error is not permanent and attempts are left.
	Retry bool `json:"retry,omitempty"`
	// What a workflow branches on, which the result keeps to itself.
	ExitCode   int    `json:"exit_code,omitempty"`
	ErrOut     string `json:"err_out,omitempty"`
	TaskResult string `json:"task_result,omitempty"`
	Answer     string `json:"answer,omitempty"`
}

// InWorkflow reports whether a step of this kind is decided by the
// driver itself rather than run as a task: a gate is a decision point,
// with no work of its own.
func InWorkflow(k chain.Kind) bool { return k == chain.KindGate }

// RetriedByEngine reports whether a durable engine makes this step's
// retries (one attempt a task, StepTask.Attempt) rather than the task:
// an agent's retries share one allowance with its model requests and
// carry a broken guardrail to the next attempt, so they stay in one task.
func RetriedByEngine(s *chain.Step) bool {
	return !s.Kind.Conversational() && s.ForEach == "" && s.Attempts() > 1
}
