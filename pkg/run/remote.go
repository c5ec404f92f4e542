package run

import (
	"context"
	"maps"
	"reflect"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/given"
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

// WithRemote makes this engine a durable engine's driver: steps run
// through r.Step, checks that need the worker's configuration (models,
// callees, reruns) are left to whoever starts the run, agent decision
// points pause, and nothing is announced outside the event stream.
func WithRemote(r *Remote) Option { return func(l *Local) { l.Remote = r } }

// WithClock sets the engine's clock (a workflow's deterministic time).
func WithClock(now func() time.Time) Option { return func(l *Local) { l.Now = now } }

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

// taskValue is v as it travels.
func taskValue(v Value) TaskValue {
	tv := TaskValue{Text: v.Text, Data: v.Data, JSON: v.JSON}
	tv.Parsed = v.Data != nil && reflect.DeepEqual(TextValue(v.Text).Data, v.Data)
	return tv
}

// value is a travelled value as the run had it.
func (tv TaskValue) value() Value {
	if tv.Parsed {
		return Value{Text: tv.Text, Data: TextValue(tv.Text).Data, JSON: tv.JSON}
	}
	return Value{Text: tv.Text, Data: record.WholeNumbers(tv.Data), JSON: tv.JSON}
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

// remoteStep hands a step to the durable engine and takes back what it
// did, as if it had run here.
func (x *Execution) remoteStep(ctx context.Context, s *chain.Step, note string) (*record.StepResult, bool) {
	t := StepTask{RunID: x.RunID, Chain: x.Chain.Name, Step: s.ID, Note: note, Vars: map[string]TaskValue{}, Fallback: s.FallbackNumber()}
	x.Vars.mu.RLock()
	t.Inputs, t.Typed = x.Vars.inputs, x.Vars.typed
	for name, v := range x.Vars.vars {
		t.Vars[name] = taskValue(v)
	}
	x.Vars.mu.RUnlock()
	t.MaxTokens, t.MaxCalls, t.MaxCostUSD = x.budgetLeft()
	done := x.Engine.Remote.Step(ctx, t)
	for name, v := range done.Vars {
		x.Vars.Set(name, v.value())
	}
	for _, e := range done.Events {
		x.Engine.events.Emit(e)
		if x.Req.Events != nil {
			x.Req.Events.Emit(e)
		}
	}
	for _, w := range done.Warnings {
		x.Warn(w)
	}
	if done.Refused {
		x.markRefused(s.ID)
	}
	sr := done.Result
	sr.ExitCode, sr.ErrOut, sr.Result, sr.Answer = done.ExitCode, done.ErrOut, done.TaskResult, done.Answer
	x.spent(sr.Usage)
	return &sr, done.EarlyExit
}

// RunTask runs one step of c as a durable engine's task (an activity):
// the run's variables are t's, the step runs as it would here, and what
// it changed comes back. It never fails: a step that failed says so in
// its result.
func (l *Local) RunTask(ctx context.Context, c *chain.Chain, t StepTask) StepDone {
	s := TaskStep(c, t)
	if s == nil {
		return StepDone{Result: record.StepResult{ID: t.Step, Status: record.StepFailed, Error: "the chain has no step " + t.Step}}
	}
	st := newStore(t.Inputs)
	if st.inputs == nil {
		st.inputs = map[string]string{}
	}
	st.typed = t.Typed
	for name, v := range t.Vars {
		st.vars[name] = v.value()
	}
	before := maps.Clone(st.vars)
	events := &collected{}
	x := l.newExecution(c, t.RunID, st, llm.NewCostBudget(t.MaxTokens, t.MaxCalls, t.MaxCostUSD, l.prices), Request{Events: events}, nil)
	x.attemptOnly = t.Attempt
	env, err := l.readDotenv(c, l.dir)
	if err != nil {
		return StepDone{Result: record.StepResult{ID: t.Step, Status: record.StepFailed, Error: err.Error()}}
	}
	x.setEnv(env)
	sr, exit := x.runStepNoted(ctx, s, t.Note)
	x.closeMCP()
	done := StepDone{Result: *sr, EarlyExit: exit, Events: events.list, Warnings: x.warnings, Refused: x.refused[s.ID],
		ExitCode: sr.ExitCode, ErrOut: sr.ErrOut, TaskResult: sr.Result, Answer: sr.Answer, Retry: x.retryLeft}
	for name, v := range st.vars {
		if old, ok := before[name]; !ok || !sameValue(old, v) {
			if done.Vars == nil {
				done.Vars = map[string]TaskValue{}
			}
			done.Vars[name] = taskValue(v)
		}
	}
	return done
}

// sameValue reports whether a variable kept its value (its text says
// it: Data is derived from the text or set with it).
func sameValue(a, b Value) bool {
	return a.Text == b.Text && a.JSON == b.JSON && (a.Data == nil) == (b.Data == nil)
}

// collected keeps a task's events to hand them back with its result
// (a loop's items emit at once).
type collected struct {
	mu   sync.Mutex
	list []event.Event
}

func (c *collected) Emit(e event.Event) {
	c.mu.Lock()
	c.list = append(c.list, e)
	c.mu.Unlock()
}

// budgetLeft is what the run's budget has left for a task, from what
// the finished steps used (0: no cap).
func (x *Execution) budgetLeft() (tokens, calls int, cost float64) {
	maxTokens, maxCalls := budgetCaps(x.Chain, x.Req.MaxTokens)
	maxCost := costCap(x.Chain, x.Req.MaxCostUSD)
	x.mu.Lock()
	defer x.mu.Unlock()
	if maxCost > 0 {
		cost = max(maxCost-x.used.CostUSD, 1e-9) // spent: the next request is refused
	}
	if maxTokens > 0 {
		tokens = max(maxTokens-x.used.InputTokens-x.used.OutputTokens, 1)
	}
	if maxCalls > 0 {
		calls = max(maxCalls-x.used.LLMCalls, 1)
	}
	return tokens, calls, cost
}

// spent adds a task's model use to the run's.
func (x *Execution) spent(u *record.Usage) {
	if u == nil {
		return
	}
	x.mu.Lock()
	x.used.Add(*u)
	x.mu.Unlock()
}

// CheckInputs checks a request's inputs as a run would before anything
// runs (exit 2 naming the input), for an engine that starts the run
// elsewhere; the workers check models and callees where they run.
func CheckInputs(req Request) error {
	_, _, err := given.ResolveTyped(req.Chain, req.Inputs)
	return err
}
