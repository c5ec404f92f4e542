package run

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/run/mask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Execution is the state of one run in progress.
type Execution struct {
	Engine  *Local
	Chain   *chain.Chain
	RunID   string
	Vars    *Values
	mu      sync.Mutex
	results map[string]*record.StepResult
	// Failure is the first failure that stopped the run; failedStep is
	// the step that failed, earlyExit the one whose early_exit_if ended
	// the run (they say why a running step was cancelled).
	Failure    string
	failedStep string
	// alsoFailed are the steps that failed after the first, in the order
	// they failed (a keep-going run goes on after a failure).
	alsoFailed []string
	earlyExit  string
	// refused are the steps the run's budget refused a model call.
	refused map[string]bool
	// routed is what routers decided of the steps they list (route.go);
	// waiting are the gates the run waits at (body_gate.go).
	routed  routing
	waiting map[string]gateWait
	Secrets *mask.Masker
	// chosenPaths: a path or cwd this execution renders from the run's
	// data may hold what a decision chose, handed on through the context,
	// a $.-path or a called workflow's input, so it is confined as an
	// argument's is (confine.go). It holds in a workflow, in a run whose
	// inputs a model or an MCP client chose, and in whatever they call.
	chosenPaths bool
	// secretValues are handed down to the chains this one calls.
	secretValues []string
	// itemSlots bounds the loop items running at once across the run.
	itemSlots chan struct{}
	// Budget, when set, caps the run's model use.
	Budget *llm.Budget
	// contextMu lets one OCC context budget pass (context_budget.go) at a
	// time change the variables.
	contextMu sync.Mutex
	// Req is what the run was asked: journal, resume state.
	Req      Request
	warnings []string
	// bin is the chain's bin/ directory, looked up once.
	bin     string
	binOnce sync.Once
	// spills numbers the files oversized outputs are kept in.
	spills atomic.Int64
	// mcp holds the run's MCP sessions (body_mcp.go), opened on first use.
	mcp *mcpclient.Pool
	// used is the model use of steps run as tasks (remote.go), which
	// the budget of a durable engine's run counts.
	used record.Usage
	// attemptOnly runs that one attempt of a step whose retries a
	// durable engine makes; retryLeft then says another may follow.
	attemptOnly int
	retryLeft   bool
	// env holds the variables of the run's dotenv files (dotenv.go): its
	// commands get them, never its saved records.
	env map[string]string
	// inner are the non-idempotent branches and pipeline steps that
	// finished in this call (inner_steps.go): another attempt of their
	// step keeps them.
	inner map[string]record.StepRecord
	// begun are the non-idempotent steps marked begun in this call that
	// have not finished reusably since: a retry confirms them (--rerun).
	begun map[string]bool
	// taken are the saved branches and pipeline steps a step of this
	// call reused: once.
	taken map[string]bool
	// KeyTake is a workflow's correlation id for the executor running
	// (takeKey), read by its idempotency key; "" in a DAG chain.
	KeyTake string
}

// Driver chooses what an execution runs next: the DAG driver by
// dependencies, the flow driver by states and transitions. Everything
// else (inputs, variables, steps, journal, resume, results, events) is
// the execution's.
type Driver interface {
	// where is where the run stands, for its events ("" for a DAG).
	Where() string
	// drive runs steps until the run ends, pauses, fails or is
	// cancelled.
	Drive(ctx context.Context)
	// conclude sets what the driver decided of the result: its status and
	// error, its steps in order, its output, and for a workflow the
	// response of reference 000.
	Conclude(ctx context.Context, res *record.Result)
	// exec is the execution driven.
	Exec() *Execution
}

// Run drives the execution and assembles its result.
func (x *Execution) Run(ctx context.Context, d Driver) *record.Result {
	start := x.Engine.Now()
	started := event.Event{Type: event.RunStarted, Chain: x.Chain.Name, State: d.Where()}
	if x.Req.Trace.IsValid() {
		started.Trace = x.Req.Trace.Traceparent()
	}
	x.Emit(started)
	announced := x.announceStop(ctx)
	d.Drive(ctx)
	res := &record.Result{
		RunID:     x.RunID,
		Name:      x.Chain.Name,
		Vars:      map[string]any{},
		StartedAt: start.UTC().Format(time.RFC3339Nano),
	}
	d.Conclude(ctx, res)
	x.runHandlers(ctx, res)
	x.closeMCP()
	if res.Steps == nil {
		res.Steps = []record.StepResult{}
	}
	for _, list := range [][]record.StepResult{res.Steps, res.Handlers} {
		for _, sr := range list {
			if sr.Usage != nil {
				res.Usage.Add(*sr.Usage)
			}
		}
	}
	x.Vars.mu.RLock()
	for name, v := range x.Vars.vars {
		if (name != response.ContextVar || x.Chain.Workflow == nil) && !record.InternalVar(name) {
			res.Vars[name] = v.Public()
		}
	}
	x.Vars.mu.RUnlock()
	res.DurationMS = x.Engine.Now().Sub(start).Milliseconds()
	res.Warnings = x.warnings
	x.maskResult(res)
	announced()
	res.KeepBytes()
	finished := event.Event{Type: event.RunFinished, Chain: x.Chain.Name, Status: res.Status, Error: res.Error, DurationMS: res.DurationMS, State: d.Where()}
	res.Usage.Describe(&finished)
	x.Emit(finished)
	return res
}

// announceStop tells, as it happens, that the run is told to stop (ctx
// ends: Ctrl-C, SIGTERM), and then that it is forced (interrupt.Force
// closes: a second Ctrl-C), so that a person sees at once that chainrun heard
// them while the steps' process groups stop. A called chain leaves it to
// its caller. The returned func ends the watch; after it nothing more is
// announced (run.finished comes last).
func (x *Execution) announceStop(ctx context.Context) (done func()) {
	if strings.Contains(x.RunID, "/") || x.Engine.Remote != nil {
		return func() {}
	}
	quit, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		select {
		case <-ctx.Done():
		case <-quit:
			if ctx.Err() == nil {
				return
			}
			// told to stop as the run ended: both were ready, and a
			// person who pressed Ctrl-C is still told it was heard
		}
		x.Emit(event.Event{Type: event.RunStopping, Chain: x.Chain.Name})
		select {
		case <-interrupt.Force(ctx):
		case <-quit:
			return
		}
		x.Emit(event.Event{Type: event.RunStopping, Chain: x.Chain.Name, Detail: "forced"})
	}()
	return func() {
		close(quit)
		<-over
	}
}

// MarkStarted records, before a step that must never repeat unconfirmed
// runs, that it began. Without the mark a crash could repeat it unasked,
// so a failed mark is a failed step.
func (x *Execution) MarkStarted(s *chain.Step) *record.StepResult {
	if x.Req.Journal == nil || !response.NeedsConfirmation(s) {
		return nil
	}
	if err := x.Req.Journal.StepStarted(s.ID); err != nil {
		return &record.StepResult{ID: s.ID, Status: record.StepFailed, Error: "cannot record that this non-idempotent step began: " + err.Error()}
	}
	x.mu.Lock()
	if x.begun == nil {
		x.begun = map[string]bool{}
	}
	x.begun[s.ID] = true
	x.mu.Unlock()
	return nil
}

// Emit stamps an event with the schema version, time and run id, masks
// secret input values in its text, and sends it.
func (x *Execution) Emit(e event.Event) {
	e.V, e.RunID = event.SchemaVersion, x.RunID
	if e.Step != "" && x.Chain.Handlers != nil && e.Handler == "" {
		if s := x.Chain.Step(e.Step); s != nil {
			e.Handler = s.Lifecycle()
		}
	}
	if e.Time.IsZero() {
		e.Time = x.Engine.Now()
	}
	e.Error, e.Line, e.Detail = x.Mask(e.Error), x.Mask(e.Line), x.Mask(e.Detail)
	x.Engine.events.Emit(e)
	if x.Req.Events != nil {
		x.Req.Events.Emit(e)
	}
}
