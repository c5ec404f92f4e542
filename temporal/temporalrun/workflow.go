package temporalrun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// Names of the workflow, its activity, its update and its queries: what
// clients and workers of every version agree on.
const (
	WorkflowName = "chainrun.chain"
	StepActivity = "chainrun.step"
	UpdateTake   = "take"
	QueryState   = "state"
	QueryEvents  = "events"
)

// historyLimit is the history length past which a run that pauses goes
// on as a new execution (continue-as-new), well below Temporal's 50,000
// events.
const historyLimit = 20000

// Start is the workflow's input: the chain as its file was when the run
// started (so a file changed since never changes a run in flight), the
// inputs and the run's settings; and, after continue-as-new, what the
// run has done so far.
type Start struct {
	RunID  string            `json:"run_id"`
	File   string            `json:"file"`
	Source []byte            `json:"source"`
	Name   string            `json:"name"`
	Inputs map[string]string `json:"inputs,omitempty"`

	MaxTokens int     `json:"max_tokens,omitempty"`
	MaxCost   float64 `json:"max_cost_usd,omitempty"`
	Parallel  int     `json:"parallel,omitempty"`
	Lenient   bool    `json:"lenient,omitempty"`
	// LocalActivities: cheap (the default), none or all.
	LocalActivities string `json:"local_activities,omitempty"`
	// Heartbeat is how long a step's worker may stay silent before the
	// step is given to another worker (default 20s).
	Heartbeat time.Duration `json:"heartbeat,omitempty"`

	Steps   []record.StepRecord       `json:"steps,omitempty"`
	History []record.TransitionRecord `json:"history,omitempty"`
	Take    string                    `json:"take,omitempty"`
	Args    map[string]any            `json:"args,omitempty"`
	Acks    []string                  `json:"acks,omitempty"`
	Rerun   []string                  `json:"rerun,omitempty"`
	// Started are the non-idempotent steps that began (a retry over one
	// that did not finish needs --rerun, as a local run's does).
	Started []string `json:"started,omitempty"`
	// Runs counts the step runs so far, for unique activity ids.
	Runs map[string]int `json:"runs,omitempty"`
}

// State is what the state query answers: the run's latest result (of its
// last round, or nil while the first runs) and whether it waits.
type State struct {
	Status record.Status  `json:"status"`
	Result *record.Result `json:"result,omitempty"`
	Events int            `json:"events"`
}

// Take is the take update's argument: resume's --take, --arg, --ack and
// --rerun. An empty one retries a failed run, as a plain resume does.
type Take = run.TakeRequest

// ChainWorkflow runs one chain: the local engine's drivers decide what
// runs next, in this workflow's code; each step is an activity (or a
// local activity) on whichever worker takes it. A pause (a decision
// point, a gate) waits for the take update, and so does a failed run,
// for its retry; a run ends with its result, or, cancelled while it
// waits, as it stands. A panic of the workflow's code fails the run
// (instead of failing every workflow task for good).
func ChainWorkflow(ctx workflow.Context, in Start) (res *record.Result, err error) {
	defer failOnFault(&res, &err)
	c, err := parse(in.File, in.Source, in.Name, chain.Options{LenientVariables: in.Lenient})
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "ChainError", nil)
	}
	w := &chainRun{in: in, c: c, runs: in.Runs, records: map[string]record.StepRecord{}, started: map[string]bool{}}
	if w.runs == nil {
		w.runs = map[string]int{}
	}
	for _, rec := range in.Steps {
		w.records[rec.Result.ID] = rec
	}
	w.history = in.History
	w.state.Status = event.Running
	if err := w.handlers(ctx); err != nil {
		return nil, err
	}
	for _, id := range in.Started {
		w.started[id] = true
	}
	next := Take{Take: in.Take, Args: in.Args, Acks: in.Acks, Rerun: in.Rerun}
	for {
		res, err := w.round(ctx, next)
		if err != nil && w.state.Result != nil && nothingRan(err) {
			// a take the validator let through and its round refused
			// (what its guard read changed in between): nothing ran, the
			// run waits on as it stood, the refusal among its warnings
			res = w.state.Result
			res.Warnings = append(slices.Clone(res.Warnings), "the take was refused: "+err.Error())
			err = nil
		}
		if err != nil {
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), "RunError", nil)
		}
		w.state.Result, w.state.Status = res, res.Status
		setStatus(ctx, res.Status)
		if !waits(res.Status) {
			return res, nil
		}
		w.pending = nil
		if err := workflow.Await(ctx, func() bool { return w.pending != nil }); err != nil {
			// cancelled while it waited: it ends as it stands
			if res.Status == record.Paused {
				res.Status, res.Error = record.Interrupted, "cancelled while waiting for a decision"
			}
			return res, nil
		}
		next = *w.pending
		w.state.Status = event.Running
		setStatus(ctx, event.Running)
		if workflow.GetInfo(ctx).GetCurrentHistoryLength() > historyLimit {
			return nil, workflow.NewContinueAsNewError(ctx, WorkflowName, w.carried(next))
		}
	}
}

// nothingRan reports whether err refused a round before anything ran.
func nothingRan(err error) bool {
	var nr interface{ NothingRan() bool }
	return errors.As(err, &nr) && nr.NothingRan()
}

// waits reports whether a run that stopped with status s stays open for
// the take update: at a decision, or failed (its retry).
func waits(s record.Status) bool { return s == record.Paused || s == record.Failed }

// failOnFault, deferred, makes a panic of the workflow's code (or a
// coroutine's fault, raised again) the run's failure: Temporal would
// otherwise fail the workflow task, again at every retry, and the run
// would hang.
func failOnFault(res **record.Result, err *error) {
	if p := recover(); p != nil {
		*res = nil
		*err = temporal.NewNonRetryableApplicationError(fmt.Sprintf("a fault in the chain workflow's code: %v", p), "WorkflowFault", nil)
	}
}

// raiseFault raises, in the workflow's main coroutine, a panic that a
// step's coroutine kept (coroutines.Start).
func (w *chainRun) raiseFault() {
	if w.fault != nil {
		panic(w.fault)
	}
}

// chainRun is one workflow execution's state.
type chainRun struct {
	in      Start
	c       *chain.Chain
	records map[string]record.StepRecord
	started map[string]bool
	history []record.TransitionRecord
	runs    map[string]int
	events  []event.Event
	state   State
	pending *Take
	// fault is a panic of a coroutine's code, which fails the run.
	fault any
}

// Emit keeps the run's events for the events query.
func (w *chainRun) Emit(e event.Event) { w.events = append(w.events, e) }

// Journal: what the rounds saved, for the next round and continue-as-new.
func (w *chainRun) StepStarted(id string) error {
	w.started[id] = true
	return nil
}

func (w *chainRun) StepFinished(rec record.StepRecord) error {
	w.records[rec.Result.ID] = rec
	return nil
}

func (w *chainRun) Transition(rec record.TransitionRecord) error {
	w.history = append(w.history, rec)
	return nil
}

// round runs the chain's drivers from where the run stands, with the
// decision taken, to its end or next pause.
func (w *chainRun) round(ctx workflow.Context, t Take) (*record.Result, error) {
	native, cancel := context.WithCancel(withWorkflow(context.Background(), ctx))
	defer cancel()
	// the run's cancellation reaches the drivers as their context's
	workflow.Go(ctx, func(wc workflow.Context) {
		wc.Done().Receive(wc, nil)
		cancel()
	})
	res, err := w.engine(ctx, run.WithEvents(w)).Run(native, w.request(t))
	w.raiseFault()
	return res, err
}

// engine is the local engine's drivers, in this workflow's code.
func (w *chainRun) engine(ctx workflow.Context, opts ...run.Option) *run.Local {
	return run.New(append([]run.Option{
		run.WithRemote(&task.Remote{Runner: w.newRunner, Step: w.step}),
		run.WithClock(func() time.Time { return workflow.Now(ctx) }),
		run.WithParallel(parallelOf(w.in.Parallel)),
		run.WithLenientVariables(w.in.Lenient),
	}, opts...)...)
}

// request is the run's next round, from what it saved, with t's decision.
func (w *chainRun) request(t Take) run.Request {
	return run.Request{RunID: w.in.RunID, Chain: w.c, Inputs: w.in.Inputs, MaxTokens: w.in.MaxTokens, MaxCostUSD: w.in.MaxCost,
		Journal: w, Resume: maps.Clone(w.records), History: slices.Clone(w.history), Take: t.Take, Args: t.Args, Acks: t.Acks,
		Started: maps.Clone(w.started), Rerun: setOf(t.Rerun)}
}

// setOf is names as a set (nil for none).
func setOf(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// parallelOf bounds a run's steps at once below Temporal's limit of
// pending activities a workflow (2,000).
func parallelOf(n int) int {
	if n <= 0 {
		n = run.DefaultParallel()
	}
	return min(n, 1000)
}

// carried is the input of the execution that continues this one.
func (w *chainRun) carried(t Take) Start {
	next := w.in
	next.Steps = next.Steps[:0:0]
	for _, s := range w.c.Steps {
		if rec, ok := w.records[s.ID]; ok {
			next.Steps = append(next.Steps, rec)
		}
	}
	for id, rec := range w.records {
		if w.c.Step(id) == nil {
			next.Steps = append(next.Steps, rec)
		}
	}
	slices.SortStableFunc(next.Steps, func(a, b record.StepRecord) int { return strings.Compare(a.Result.ID, b.Result.ID) })
	next.History, next.Take, next.Args, next.Acks, next.Rerun, next.Runs = w.history, t.Take, t.Args, t.Acks, t.Rerun, w.runs
	next.Started = slices.Sorted(maps.Keys(w.started))
	return next
}

// handlers registers the queries and the take update, with its
// validator: a choice the paused run cannot take is refused before it
// reaches the history.
func (w *chainRun) handlers(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (State, error) {
		s := w.state
		s.Events = len(w.events)
		return s, nil
	}); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, QueryEvents, func(from int) ([]event.Event, error) {
		if from < 0 || from > len(w.events) {
			from = len(w.events)
		}
		return w.events[from:], nil
	}); err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, UpdateTake,
		func(ctx workflow.Context, t Take) error {
			w.pending = &t
			return nil
		},
		workflow.UpdateHandlerOptions{Validator: func(vc workflow.Context, t Take) error { return w.validTake(vc, t) }})
}

// validTake checks a take against the run as it stands, as the round
// that takes it would (the local engine's own checks: the choice, its
// guards, its arguments against the transition's inputSchema, the
// acknowledgments), so that a refused take leaves the run waiting and
// nothing in its history.
func (w *chainRun) validTake(ctx workflow.Context, t Take) error {
	if !waits(w.state.Status) || w.state.Result == nil || w.pending != nil {
		return fmt.Errorf("run %s is %s: there is no decision to take", w.in.RunID, w.state.Status)
	}
	return w.engine(ctx).Refusal(w.request(t))
}

// setStatus keeps the run's status in its memo, for runs lists.
func setStatus(ctx workflow.Context, s record.Status) {
	_ = workflow.UpsertMemo(ctx, map[string]any{"status": string(s)})
}

// parse reads the chain of the run from its file's text.
func parse(file string, src []byte, name string, opts chain.Options) (*chain.Chain, error) {
	loaded, err := load.Parse(file, src, opts)
	if err != nil {
		return nil, err
	}
	if c := loaded.Named(name); c != nil {
		return c, nil
	}
	if name == "" {
		return loaded.Chain, nil
	}
	return nil, fmt.Errorf("%s holds no chain %s", file, name)
}
