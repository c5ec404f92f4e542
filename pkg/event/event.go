package event

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// SchemaVersion is written into every event as "v".
const SchemaVersion = 1

// Type names what happened.
type Type string

// The event types.
const (
	RunStarted  Type = "run.started"
	RunFinished Type = "run.finished"
	// RunStopping is a run told to stop (Ctrl-C, SIGTERM): its running
	// steps are being stopped, each given its grace period; with Detail
	// "forced" (a second Ctrl-C), they are being killed at once. It comes
	// as the stop is asked, before run.finished.
	RunStopping Type = "run.stopping"
	// StepWaiting is a step whose dependencies are done but which waits
	// for a free --max-parallel slot (Detail says so); step.started
	// follows when it starts.
	StepWaiting Type = "step.waiting"
	// StepStarted is a step that starts; an agent step's carries the
	// model it asks first (Model).
	StepStarted Type = "step.started"
	StepAttempt Type = "step.attempt"
	// StepLog is output of a step: one line (Line), or with --verbose a
	// batch of a command's lines in the order printed (Lines: what one
	// read of its output completed), so a chatty step costs an event per
	// read, not per line.
	StepLog Type = "step.log"
	// StepStreamed is what --verbose streamed of one stream of a
	// command's output, sent once the command ended: LineCount lines,
	// Bytes bytes. The event log keeps it in place of the lines, whose
	// text is the step's output (kept as its value or in outputs/ when
	// a step keeps it).
	StepStreamed Type = "step.streamed"
	StepFinished Type = "step.finished"
	// LLMCall is one request sent to a model (retries included).
	LLMCall Type = "llm.call"
	// LLMFallback is an agent step moving on to its next model (Model)
	// after the one before (Detail) failed (Error) past its retries.
	LLMFallback Type = "llm.fallback"
	// FallbackSelected is a workflow executor giving way to the next of
	// its reliability.fallback executors (Candidate, 1 for the first;
	// Kind its kind) after the one before failed past its retries
	// (Error): mcp-flowgate's fallback.selected audit event.
	FallbackSelected Type = "fallback.selected"
	// LLMDelta is text of an answer as it streams in.
	LLMDelta Type = "llm.delta"
	// StepSaved carries a finished step's saved record (result and
	// output) in Record: the log is also the journal a resume replays.
	StepSaved Type = "step.saved"
	// StepBegun marks that a step which is not idempotent began.
	StepBegun Type = "step.begun"
	// StepProcess is a process a step started, with its process group
	// (PID): a resume refuses while it is still alive, so a step never
	// runs twice at once.
	StepProcess Type = "step.process"
	// Transition is a workflow transition taken: State to Target.
	Transition Type = "transition"
	// TransitionSaved carries a taken transition's saved record in
	// Record, for resume.
	TransitionSaved Type = "transition.saved"
	// Decision is a choice made at a decision point, with who made it
	// (DecidedBy), or a pause for one (Status paused).
	Decision Type = "decision"
	// Acknowledged is a subject's body the run acknowledged at State
	// (Detail: its kind, subject and hash), by DecidedBy: what
	// acknowledgment guards wait for.
	Acknowledged Type = "acknowledged"
	// ToolCall is one tool call of an agent step: Tool, the digest of its
	// arguments, DurationMS and Status (ok, error, denied, unknown).
	ToolCall Type = "tool.call"
	// ToolGranted is a call outside the step's tools that was allowed
	// (DecidedBy: grant for --grant, human at a terminal).
	ToolGranted Type = "tool.granted"
	// ToolDenied is a call outside the step's tools that was refused
	// (DecidedBy: headless, human), or one the chain refuses (DecidedBy:
	// chain: a task chain's tools_policies or its asking task's tools).
	ToolDenied Type = "tool.denied"
	// HandlerStarted is a lifecycle handler (Handler: on_success,
	// on_failure, on_cancel, on_exit) that starts once the run's steps
	// have finished, with the run's Status; its steps' events follow,
	// each with the same Handler.
	HandlerStarted Type = "handler.started"
)

// Event is one thing that happened in a run.
type Event struct {
	V     int       `json:"v"`
	Time  time.Time `json:"time"`
	RunID string    `json:"run_id"`
	Type  Type      `json:"type"`
	// Chain is set on run events.
	Chain string `json:"chain,omitempty"`
	// Step is the step id, on step events.
	Step    string `json:"step,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Attempt int    `json:"attempt,omitempty"`
	// Status is the outcome on *.finished events (the step and run
	// statuses of the JSON result), of a request or a tool call.
	Status Status `json:"status,omitempty"`
	// PID is the process group a step's command runs in (step.process).
	PID int `json:"pid,omitempty"`
	// Stream is stdout or stderr on step.log events; Line the text.
	Stream     string `json:"stream,omitempty"`
	Line       string `json:"line,omitempty"`
	Error      string `json:"error,omitempty"`
	DurationMS int64  `json:"duration_ms,omitempty"`
	// Detail is a short human note (why a step was skipped, the delay
	// before a retry).
	Detail string `json:"detail,omitempty"`
	// Model is provider/model on llm.call events, with the tokens used,
	// and on an agent step's step.started and step.finished.
	Model        string `json:"model,omitempty"`
	InputTokens  int    `json:"input_tokens,omitempty"`
	OutputTokens int    `json:"output_tokens,omitempty"`
	// Record is the saved step on step.saved events, the saved
	// transition on transition.saved events.
	Record json.RawMessage `json:"record,omitempty"`
	// State, Target, Actor and DecidedBy describe transition and decision
	// events (Step is the transition's name).
	State     string `json:"state,omitempty"`
	Target    string `json:"target,omitempty"`
	Actor     string `json:"actor,omitempty"`
	DecidedBy string `json:"decided_by,omitempty"`
	// Principal is the id of who the run acts for (config principal:),
	// on decision and transition events: the audit log says who decided.
	Principal string `json:"principal,omitempty"`
	// Tool and Digest name a tool call (Digest: the first 12 hex digits
	// of the SHA-256 of its arguments); Turn numbers an agent step's model
	// calls in its tool loop.
	Tool   string `json:"tool,omitempty"`
	Digest string `json:"digest,omitempty"`
	// Subject is what a tool call touches (the file read, the pattern,
	// the command's first line), bounded and masked, for a person.
	Subject string `json:"subject,omitempty"`
	Turn    int    `json:"turn,omitempty"`
	// Candidate is the fallback executor a fallback.selected event
	// moves to: 1 for the first (0, the primary, is never selected).
	Candidate int `json:"candidate,omitempty"`
	// Handler is the lifecycle handler (on_success, on_failure,
	// on_cancel, on_exit) whose step an event is about.
	Handler string `json:"handler,omitempty"`
	// Lines is a step.log event's batch of lines, each ending in a
	// newline (Line is empty then): the text as the command printed it,
	// CRs before newlines dropped, a line over 64 KiB cut in pieces.
	Lines string `json:"lines,omitempty"`
	// LineCount and Bytes count what a step.streamed event stands for.
	LineCount int   `json:"line_count,omitempty"`
	Bytes     int64 `json:"bytes,omitempty"`
	// ResponseModel is the model that answered, as the provider named it,
	// and FinishReason why it stopped (stop, length, tool_calls…), on
	// llm.call events.
	ResponseModel string `json:"response_model,omitempty"`
	FinishReason  string `json:"finish_reason,omitempty"`
	// CacheReadTokens and CacheWriteTokens are the input tokens a request
	// (or a step, or the run) read from and wrote to the provider's prompt
	// cache, counted in InputTokens too.
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// CostUSD is what a request (llm.call), a step (step.finished) or the
	// run (run.finished) cost at the models' prices; Unpriced names the
	// models used that have no known price, whose tokens CostUSD leaves
	// out.
	CostUSD  *float64 `json:"cost_usd,omitempty"`
	Unpriced []string `json:"unpriced,omitempty"`
	// Prompt and Answer are a request's messages and its answer (JSON, in
	// the GenAI conventions' message shape), masked, on llm.call events
	// only when the user asked for them (otel.capture_content).
	Prompt string `json:"prompt,omitempty"`
	Answer string `json:"answer,omitempty"`
	// Trace is the W3C traceparent of the run's span on run.started, when
	// the run is exported as a trace: a resume links its trace to it.
	Trace string `json:"trace,omitempty"`
}

// LogLines are the lines a step.log event carries, without their
// newlines: its batch, or its one Line.
func (e *Event) LogLines() []string {
	if e.Lines == "" {
		return []string{e.Line}
	}
	return strings.Split(strings.TrimSuffix(e.Lines, "\n"), "\n")
}

// EachLogLine calls fn with each line a step.log event carries, without
// its newline, in order, allocating nothing.
func (e *Event) EachLogLine(fn func(string)) {
	if e.Lines == "" {
		fn(e.Line)
		return
	}
	for rest := e.Lines; rest != ""; {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			fn(rest) // a batch not ended by a newline: its last line
			return
		}
		fn(rest[:i])
		rest = rest[i+1:]
	}
}

// Sink receives events. Emit must be safe for concurrent use and must not
// block for long: it is called from running steps.
type Sink interface {
	Emit(Event)
}

// Func adapts a function to Sink.
type Func func(Event)

// Emit calls f.
func (f Func) Emit(e Event) { f(e) }

// Discard drops every event.
var Discard Sink = Func(func(Event) {})

// Recorder keeps every event, for tests and for reports built after a run.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

// Emit records e.
func (r *Recorder) Emit(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// Events returns a copy of what was recorded.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Multi sends each event to every sink in turn.
type Multi []Sink

// Emit forwards e.
func (m Multi) Emit(e Event) {
	for _, s := range m {
		s.Emit(e)
	}
}
