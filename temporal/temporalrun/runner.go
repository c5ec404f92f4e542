package temporalrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// workflowKey carries a coroutine's workflow.Context inside the
// context.Context the local engine's drivers pass along, so that the
// step they run becomes an activity of that coroutine.
type workflowKey struct{}

func withWorkflow(ctx context.Context, wc workflow.Context) context.Context {
	return context.WithValue(ctx, workflowKey{}, wc)
}

func workflowOf(ctx context.Context) workflow.Context {
	return ctx.Value(workflowKey{}).(workflow.Context)
}

// coroutines is the DAG driver's dag.Runner in workflow code: each ready
// step a workflow coroutine, their ends a workflow channel, so a replay
// sees them in the order the history holds.
type coroutines struct {
	w      *chainRun
	ctx    context.Context
	wc     workflow.Context
	cancel workflow.CancelFunc
	done   workflow.Channel
}

type ended struct {
	Node    int
	Outcome dag.Outcome
}

func (w *chainRun) newRunner(ctx context.Context) dag.Runner {
	wc, cancel := workflow.WithCancel(workflowOf(ctx))
	return &coroutines{w: w, ctx: ctx, wc: wc, cancel: cancel, done: workflow.NewChannel(wc)}
}

// Start runs a ready step in a coroutine of its own. A panic there stops
// the run's steps and is kept as its fault, which fails the run (round).
func (r *coroutines) Start(i int, visit func(ctx context.Context) dag.Outcome) {
	workflow.Go(r.wc, func(wc workflow.Context) {
		o := r.visit(wc, visit)
		r.done.Send(wc, ended{i, o})
	})
}

// visit runs one visit, a panic its fault (and its outcome Stop).
func (r *coroutines) visit(wc workflow.Context, visit func(ctx context.Context) dag.Outcome) (o dag.Outcome) {
	defer func() {
		if p := recover(); p != nil {
			if r.w.fault == nil {
				r.w.fault = p
			}
			o = dag.Stop
		}
	}()
	return visit(withWorkflow(r.ctx, wc))
}

func (r *coroutines) Next() (int, dag.Outcome) {
	var e ended
	// a disconnected context: the ends of cancelled steps still arrive
	dc, _ := workflow.NewDisconnectedContext(r.wc)
	r.done.Receive(dc, &e)
	return e.Node, e.Outcome
}

func (r *coroutines) Cancel() { r.cancel() }

// Task is the step activity's input: the chain's file (the step is
// read from it on the worker) and the step with the run's variables.
type Task struct {
	File    string        `json:"file"`
	Source  []byte        `json:"source"`
	Name    string        `json:"name"`
	Lenient bool          `json:"lenient,omitempty"`
	Step    task.StepTask `json:"step"`
	// EngineRetries: the activity's attempt is the step's (one attempt
	// an activity, retried by Temporal's retry policy).
	EngineRetries bool `json:"engine_retries,omitempty"`
}

// step runs one step as an activity of the calling coroutine and takes
// back what it did. An activity that could not finish (its worker lost
// past its retries, the run cancelled) is the step's failure. A step of
// a workflow that a workflow step runs is found in that workflow (a
// chain of the same file); its activity id is its path in the run
// (CALLER/STEP), as its saved record's is.
func (w *chainRun) step(ctx context.Context, t task.StepTask) task.StepDone {
	wc := workflowOf(ctx)
	c := w.chainOf(t.Chain)
	s := task.TaskStep(c, t)
	if s == nil {
		return task.StepDone{Result: record.StepResult{ID: t.Step, Status: record.StepFailed, Attempts: 1,
			Error: fmt.Sprintf("%s: chain %s has no step %s", w.in.File, c.Name, t.Step)}}
	}
	id := t.Step
	if within := strings.TrimPrefix(strings.TrimPrefix(t.RunID, w.in.RunID), "/"); within != "" && within != t.RunID {
		id = within + "/" + t.Step
	}
	w.runs[id]++
	if n := w.runs[id]; n > 1 {
		id = fmt.Sprintf("%s#%d", id, n)
	}
	job := Task{File: w.in.File, Source: w.in.Source, Name: c.Name, Lenient: w.in.Lenient, Step: t, EngineRetries: task.RetriedByEngine(s)}
	var done task.StepDone
	var err error
	if w.local(s) {
		lc := workflow.WithLocalActivityOptions(wc, workflow.LocalActivityOptions{
			StartToCloseTimeout: stepTimeout(s), RetryPolicy: retryPolicy(s, job.EngineRetries)})
		err = workflow.ExecuteLocalActivity(lc, StepActivity, job).Get(lc, &done)
	} else {
		ac := workflow.WithActivityOptions(wc, workflow.ActivityOptions{
			ActivityID:          id,
			StartToCloseTimeout: stepTimeout(s),
			HeartbeatTimeout:    heartbeatOf(w.in.Heartbeat),
			RetryPolicy:         retryPolicy(s, job.EngineRetries),
			WaitForCancellation: true,
		})
		err = workflow.ExecuteActivity(ac, StepActivity, job).Get(ac, &done)
	}
	if err == nil {
		return done
	}
	var last *temporal.ApplicationError
	if errors.As(err, &last) && last.Type() == "StepAttempt" && last.HasDetails() && last.Details(&done) == nil {
		// the last attempt Temporal made failed: the step's failure
		done.Retry = false
		return done
	}
	sr := record.StepResult{ID: t.Step, Status: record.StepFailed, Attempts: 1}
	var canceled *temporal.CanceledError
	switch {
	case errors.As(err, &canceled) || wc.Err() != nil:
		sr.Status, sr.Error = record.StepCancelled, "cancelled"
	default:
		sr.Error = "the step's activity did not finish: " + rootCause(err)
	}
	return task.StepDone{Result: sr}
}

// chainOf is the chain of the run's file named name: the run's own
// (name empty or its own), or a workflow of the same file.
func (w *chainRun) chainOf(name string) *chain.Chain {
	if name == "" || name == w.c.Name {
		return w.c
	}
	if c := w.c.Sibling(name); c != nil {
		return c
	}
	return w.c
}

// rootCause is the innermost message of an activity's error chain.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// local reports whether a step runs as a local activity: on the worker
// that runs the workflow, without a round trip through the task queue,
// and without heartbeats (so only steps that end quickly).
func (w *chainRun) local(s *chain.Step) bool {
	switch w.in.LocalActivities {
	case "all":
		return true
	case "none":
		return false
	}
	return s.Kind == chain.KindTransform || s.Kind == chain.KindNoop
}

// stepTimeout is how long one activity of the step may run: its timeout
// for each attempt the activity makes, and a minute for the rest.
func stepTimeout(s *chain.Step) time.Duration {
	attempts := 1
	if !task.RetriedByEngine(s) {
		attempts = max(s.Attempts(), 1)
	}
	return time.Duration(s.Timeout())*time.Millisecond*time.Duration(attempts) + time.Minute
}

func heartbeatOf(d time.Duration) time.Duration {
	if d <= 0 {
		return 20 * time.Second
	}
	return d
}

// lossAllowance is how many times a step runs again because its worker
// was lost (a crash, a lost host), on top of its own attempts.
const lossAllowance = 2

// retryPolicy maps a step's retry to its activity's: the step's
// attempts, delay, backoff and longest wait when Temporal makes them;
// plus lossAllowance for lost workers; one attempt, ever, for a step that
// is not idempotent, since delivery is at least once.
func retryPolicy(s *chain.Step, engineRetries bool) *temporal.RetryPolicy {
	if s.Idempotent != nil && !*s.Idempotent {
		return &temporal.RetryPolicy{MaximumAttempts: 1}
	}
	p := &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumAttempts: lossAllowance + 1}
	if engineRetries {
		p.MaximumAttempts = int32(s.Attempts()) + lossAllowance
		if s.Retry != nil {
			p.InitialInterval = max(time.Duration(s.Retry.DelayMS)*time.Millisecond, time.Millisecond)
			p.BackoffCoefficient = max(s.Retry.Backoff, 1)
			p.MaximumInterval = time.Duration(chain.MaxRetryDelayMS) * time.Millisecond
			if s.Retry.MaxDelayMS > 0 {
				p.MaximumInterval = time.Duration(s.Retry.MaxDelayMS) * time.Millisecond
			}
			p.MaximumInterval = max(p.MaximumInterval, p.InitialInterval)
		}
	}
	return p
}
