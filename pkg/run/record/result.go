package record

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Status is the outcome of a run.
type Status = event.Status

// Run statuses, as the JSON result reports them.
const (
	Succeeded   = event.Succeeded
	Failed      = event.Failed
	Interrupted = event.Interrupted
	Paused      = event.Paused
	Cancelled   = event.Cancelled
)

// StepStatus is the outcome of one step, in the same vocabulary.
type StepStatus = event.Status

// Step statuses, as the JSON result reports them.
const (
	StepSucceeded = event.Succeeded
	StepFailed    = event.Failed
	StepSkipped   = event.Skipped
	StepCached    = event.Cached
	// StepCancelled is a step stopped while it ran because another step
	// failed: not its own failure; a resume runs it again.
	StepCancelled = event.Cancelled
)

// Result is what a run returns, on success, failure and interruption
// alike. Its JSON form is the contract's `--output json` object.
type Result struct {
	RunID      string         `json:"run_id"`
	Name       string         `json:"name"`
	Status     Status         `json:"status"`
	Output     any            `json:"output"`
	Vars       map[string]any `json:"vars"`
	Steps      []StepResult   `json:"steps"`
	Usage      Usage          `json:"usage"`
	Error      string         `json:"error,omitempty"`
	DurationMS int64          `json:"duration_ms"`
	StartedAt  string         `json:"started_at"`
	// OutputBase64 and VarsBase64 carry, base64 (standard, padded), the
	// exact bytes of the output and of each variable whose value is text
	// that is not valid UTF-8 (a latin-1 file, binary): JSON text cannot
	// hold such bytes, so output and vars show each with U+FFFD in its
	// place. Absent when every text is UTF-8. See KeepBytes.
	OutputBase64 string            `json:"output_base64,omitempty"`
	VarsBase64   map[string]string `json:"vars_base64,omitempty"`
	// Warnings are problems that did not fail the run (a state directory
	// that could not be written, say).
	Warnings []string `json:"warnings,omitempty"`
	// Handlers are the steps of the chain's lifecycle handlers that this
	// attempt ran, in order, each with its handler: they do not change
	// Status (a failed one is also a warning).
	Handlers []StepResult `json:"handlers,omitempty"`
	// WorkflowResult holds state, chain, context, guidance and links for a
	// state workflow (nil for a DAG chain).
	*response.WorkflowResult
}

// StepResult is one step's outcome.
type StepResult struct {
	ID         string     `json:"id"`
	Status     StepStatus `json:"status"`
	Attempts   int        `json:"attempts"`
	DurationMS int64      `json:"duration_ms"`
	// Model is the provider/model that answered, for LLM steps.
	Model string `json:"model,omitempty"`
	Usage *Usage `json:"usage,omitempty"`
	Error string `json:"error,omitempty"`
	// Reason says why a step was skipped.
	Reason string `json:"reason,omitempty"`
	// Stderr and Stdout are the tails of a failed command's streams (the
	// last lines, bounded: FailureTail), masked: what explains a failure
	// without a rerun with --verbose, whichever stream the command wrote it
	// to (go test writes its failures to stdout).
	Stderr string `json:"stderr,omitempty"`
	Stdout string `json:"stdout,omitempty"`
	// Reused is true when a resumed run kept this step's earlier result.
	Reused bool `json:"reused,omitempty"`
	// FinishReason is why an agent step's model stopped (stop, length,
	// tool-call): reference 003 branches on it. A failed step whose model
	// declined says refusal or content-filter.
	FinishReason string `json:"finish_reason,omitempty"`
	// ToolCalls counts the tool calls an agent step's model made.
	ToolCalls int `json:"tool_calls,omitempty"`
	// Decision is what a router (its route), an evaluator (PASS or FAIL)
	// or a gate (approve, reject, skip) decided; Score is an evaluator's
	// score, Evaluations how many times it judged (1 + the times
	// on_fail: retry ran its retry_target again).
	Decision    string   `json:"decision,omitempty"`
	Score       *float64 `json:"score,omitempty"`
	Evaluations int      `json:"evaluations,omitempty"`
	// WaitingSince is when a paused gate began to wait (RFC 3339): its
	// timeout_hours count from then, across resumes.
	WaitingSince string `json:"waiting_since,omitempty"`
	// Handler is the lifecycle handler (on_success, on_failure,
	// on_cancel, on_exit) a step of the result's handlers ran in.
	Handler string `json:"handler,omitempty"`
	// Fallback numbers a workflow executor's reliability.fallback
	// executor (1 for the first): which candidate this result is.
	Fallback int `json:"fallback,omitempty"`

	// ExitCode and ErrOut are a command's exit status and whole error
	// output, which a transition's output mapping reads as
	// $.output.exitCode and $.output.stderr (not saved, nor in the JSON
	// result: the mapping runs before the transition is).
	ExitCode int    `json:"-"`
	ErrOut   string `json:"-"`
	// Result is a task chain task's result (handler.go), which its
	// branches match; not saved, as it is read before the run goes on.
	Result string `json:"-"`
	// Answer is an evaluator's whole answer, fed back to its retry_target;
	// the engine reads it and never saves it.
	Answer string `json:"-"`
}

// Usage counts LLM work: requests sent (retries included), tokens, and
// what they cost.
type Usage struct {
	LLMCalls     int `json:"llm_calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	Cached       int `json:"cached"`
	// CacheReadTokens and CacheWriteTokens are the input tokens read from
	// and written to the providers' prompt caches (counted in
	// InputTokens too).
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// CostUSD is what the requests cost at their models' prices (config
	// prices:, else the built-in list); Unpriced names the models used
	// that have no known price, whose tokens CostUSD leaves out.
	CostUSD  float64  `json:"cost_usd"`
	Unpriced []string `json:"unpriced_models,omitempty"`
}

// Add adds o to u: the model use of a step that asked more than once, or
// of the steps it ran inside it.
func (u *Usage) Add(o Usage) {
	u.LLMCalls += o.LLMCalls
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.Cached += o.Cached
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
	u.CostUSD += o.CostUSD
	for _, m := range o.Unpriced {
		u.AddUnpriced(m)
	}
}

// Describe puts u's tokens and cost on a step.finished or run.finished
// event, when any model was asked (a nil u, or one with no request sent,
// says nothing).
func (u *Usage) Describe(e *event.Event) {
	if u == nil {
		return
	}
	e.InputTokens, e.OutputTokens = u.InputTokens, u.OutputTokens
	e.CacheReadTokens, e.CacheWriteTokens = u.CacheReadTokens, u.CacheWriteTokens
	if u.LLMCalls > 0 || len(u.Unpriced) > 0 {
		cost := u.CostUSD
		e.CostUSD, e.Unpriced = &cost, u.Unpriced
	}
}

// AddUnpriced records a model without a known price, once, in order.
func (u *Usage) AddUnpriced(model string) {
	if !slices.Contains(u.Unpriced, model) {
		u.Unpriced = append(u.Unpriced, model)
	}
}

// OutputTail is one stream's tail of a failed step, as views show it.
type OutputTail struct{ Stream, Text string }

// Tails are what a failed step's command printed last, stdout then
// stderr, each stream it wrote to; none for a step that did not fail (a
// step cancelled because another failed explains nothing).
func (s StepResult) Tails() []OutputTail {
	if s.Status != StepFailed {
		return nil
	}
	var out []OutputTail
	for _, t := range []OutputTail{{"stdout", s.Stdout}, {"stderr", s.Stderr}} {
		if t.Text = strings.TrimRight(t.Text, "\r\n"); t.Text != "" {
			out = append(out, t)
		}
	}
	return out
}
