package temporalrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	_ "github.com/chainrun/chainrun/pkg/builtin" // every step kind
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Engine runs chains on Temporal for the CLI: it starts the chain
// workflow, follows it with queries, answers its decisions with the
// take update and lists runs through visibility. It implements
// run.Durable.
type Engine struct {
	Client    client.Client
	Namespace string
	TaskQueue string
	// Parallel, LocalActivities and Heartbeat go to every run started.
	Parallel        int
	LocalActivities string
	Heartbeat       time.Duration
	// Lenient keeps unresolved references literal (strict_variables: false).
	Lenient bool
	// Poll is how often a followed run is asked for its news.
	Poll time.Duration

	// from is, per run, the first event a follow shows: after a take,
	// the news since.
	from map[string]int
}

var _ run.Durable = (*Engine)(nil)

// RunError is a run refused before it started (exit 2).
type RunError struct{ Msg string }

func (e *RunError) Error() string    { return e.Msg }
func (e *RunError) NothingRan() bool { return true }

// maxSteps bounds a chain's steps so that one round of it fits a
// workflow history (about ten events a step, 50,000 at most).
const maxSteps = 4000

// start is the workflow input of a request, checked against Temporal's
// limits.
func (e *Engine) start(req run.Request) (Start, error) {
	c := req.Chain
	id := req.RunID
	if id == "" {
		id = run.NewRunID(time.Now())
	}
	in := Start{RunID: id, File: c.File, Source: c.Source, Name: c.Name, Inputs: req.Inputs, MaxTokens: req.MaxTokens, MaxCost: req.MaxCostUSD,
		Parallel: e.Parallel, Lenient: e.Lenient, LocalActivities: e.LocalActivities, Heartbeat: e.Heartbeat}
	size := len(in.Source)
	for k, v := range in.Inputs {
		size += len(k) + len(v)
	}
	if size > payloadLimit {
		return in, &RunError{fmt.Sprintf("%s: the chain and its inputs are %d bytes; a Temporal payload holds 2 MB: pass big inputs as files", c.File, size)}
	}
	if c.Handlers != nil {
		return in, &RunError{fmt.Sprintf("%s:%s: handlers: lifecycle handlers do not run on Temporal yet: run the chain with --engine local", c.File, c.Handlers.Pos)}
	}
	if err := outsideFile(c); err != nil {
		return in, err
	}
	if n := len(c.Steps) + len(stateSteps(c)); n > maxSteps {
		return in, &RunError{fmt.Sprintf("%s: %d steps; a run on Temporal holds at most %d between pauses (its history's limit): split the chain", c.File, n, maxSteps)}
	}
	return in, nil
}

// stateSteps are a workflow's tasks and executors (for the size check).
func stateSteps(c *chain.Chain) []string {
	if c.Workflow == nil {
		return nil
	}
	var out []string
	for _, s := range c.Workflow.States {
		for range s.Transitions {
			out = append(out, s.Name)
		}
	}
	return out
}

// Start starts the run and returns its id (the workflow id).
func (e *Engine) Start(ctx context.Context, req run.Request) (string, error) {
	in, err := e.start(req)
	if err != nil {
		return "", err
	}
	_, err = e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: in.RunID, TaskQueue: e.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		Memo:                     map[string]any{"chain": req.Chain.Name, "status": string(event.Running)},
	}, WorkflowName, in)
	if err != nil {
		return "", fmt.Errorf("starting run %s on Temporal: %w", in.RunID, err)
	}
	return in.RunID, nil
}

// Run starts the run and follows it to its end or pause. A stop signal
// (ctx ending) cancels the run, as it stops a local one.
func (e *Engine) Run(ctx context.Context, req run.Request) (*record.Result, error) {
	id, err := e.Start(ctx, req)
	if err != nil {
		return nil, err
	}
	res, err := e.Wait(ctx, id, req.Events)
	if ctx.Err() != nil {
		stop, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = e.Client.CancelWorkflow(stop, id, "")
		return e.Wait(stop, id, req.Events)
	}
	return res, err
}

// Wait follows the run: its events as they come, then its result when
// it ends, pauses or fails (a failed run waits for its retry).
func (e *Engine) Wait(ctx context.Context, id string, sink event.Sink) (*record.Result, error) {
	seen := e.from[id]
	poll := e.Poll
	if poll <= 0 {
		poll = 300 * time.Millisecond
	}
	wr := e.Client.GetWorkflow(ctx, id, "")
	ended := make(chan error, 1)
	var res record.Result
	go func() { ended <- wr.Get(ctx, &res) }()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case err := <-ended:
			seen = e.news(context.WithoutCancel(ctx), id, seen, sink)
			if err != nil {
				return nil, e.refusal(id, err)
			}
			return &res, nil
		case <-tick.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		seen = e.news(ctx, id, seen, sink)
		var st State
		if v, err := e.Client.QueryWorkflow(ctx, id, "", QueryState); err == nil && v.Get(&st) == nil && waits(st.Status) && st.Result != nil {
			e.news(ctx, id, seen, sink)
			return st.Result, nil
		}
	}
}

// news sends the run's events after the first seen to sink.
func (e *Engine) news(ctx context.Context, id string, seen int, sink event.Sink) int {
	if sink == nil {
		return seen
	}
	v, err := e.Client.QueryWorkflow(ctx, id, "", QueryEvents, seen)
	if err != nil {
		return seen
	}
	var evs []event.Event
	if v.Get(&evs) != nil {
		return seen
	}
	for _, ev := range evs {
		sink.Emit(ev)
	}
	return seen + len(evs)
}

// refusal names what went wrong with a run that Temporal ended.
func (e *Engine) refusal(id string, err error) error {
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return &RunError{fmt.Sprintf("no run %s on Temporal (namespace %s)", id, e.Namespace)}
	}
	return fmt.Errorf("run %s on Temporal: %w", id, err)
}

// Take answers the decision the run waits at, or retries the run that
// failed (t empty: a plain resume; on a run that has not failed it does
// nothing). The workflow's validator refuses
// what the run cannot take (a choice it does not offer, a guard that does
// not hold, arguments its inputSchema refuses, an acknowledgment of
// nothing the run shows) before it reaches the history: the run waits on.
func (e *Engine) Take(ctx context.Context, id string, t run.TakeRequest) error {
	var st State
	if v, err := e.Client.QueryWorkflow(ctx, id, "", QueryState); err == nil && v.Get(&st) == nil {
		if e.from == nil {
			e.from = map[string]int{}
		}
		e.from[id] = st.Events
	}
	if t.Empty() && st.Status != record.Failed {
		return nil // a plain resume follows a run that has not failed
	}
	h, err := e.Client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: UpdateTake, Args: []any{t},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return &RunError{fmt.Sprintf("no run %s waiting on Temporal (namespace %s)", id, e.Namespace)}
		}
		return refused(err)
	}
	return nil
}

// refused is a take the workflow's validator refused, as the CLI says it
// (exit 2: nothing ran).
func refused(err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return &RunError{app.Message()}
	}
	return &RunError{rootCause(err)}
}

// Show is the run's result as it stands: its result when it ended, its
// latest round's (or none yet) while it runs.
func (e *Engine) Show(ctx context.Context, id string) (*record.Result, error) {
	d, err := e.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return nil, e.refusal(id, err)
	}
	if d.WorkflowExecutionInfo.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		var res record.Result
		if err := e.Client.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
			return nil, e.refusal(id, err)
		}
		return &res, nil
	}
	v, err := e.Client.QueryWorkflow(ctx, id, "", QueryState)
	if err != nil {
		return nil, e.refusal(id, err)
	}
	var st State
	if err := v.Get(&st); err != nil {
		return nil, err
	}
	if st.Result == nil {
		return &record.Result{RunID: id, Status: event.Running, Steps: []record.StepResult{}}, nil
	}
	if st.Status == event.Running {
		st.Result.Status = event.Running
	}
	return st.Result, nil
}

// Runs lists the chain workflows of the namespace, newest first.
func (e *Engine) Runs(ctx context.Context, limit int) ([]run.RunInfo, error) {
	if limit <= 0 {
		limit = 100
	}
	resp, err := e.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
		Namespace: e.Namespace, PageSize: int32(limit), Query: fmt.Sprintf("WorkflowType = '%s'", WorkflowName)})
	if err != nil {
		return nil, fmt.Errorf("listing runs on Temporal: %w", err)
	}
	out := []run.RunInfo{}
	for _, x := range resp.Executions {
		info := run.RunInfo{RunID: x.GetExecution().GetWorkflowId(), StartedAt: x.GetStartTime().AsTime().UTC().Format(time.RFC3339)}
		fields := x.GetMemo().GetFields()
		var s string
		if p, ok := fields["chain"]; ok {
			_ = converterGet(p, &info.Chain)
		}
		if p, ok := fields["status"]; ok {
			_ = converterGet(p, &s)
		}
		switch x.GetStatus() {
		case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
			info.Status = s
		case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
			info.Status = s
		case enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED, enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED:
			info.Status = string(record.Interrupted)
		default:
			info.Status = string(record.Failed)
		}
		if len(out) < limit {
			out = append(out, info)
		}
	}
	return out, nil
}

func converterGet(p *commonpb.Payload, v any) error {
	return converter.GetDefaultDataConverter().FromPayload(p, v)
}

// Cancel asks the run to stop.
func (e *Engine) Cancel(ctx context.Context, id string) error {
	if err := e.Client.CancelWorkflow(ctx, id, ""); err != nil {
		return e.refusal(id, err)
	}
	return nil
}

// Plan is the local engine's: Temporal runs the same steps.
func (e *Engine) Plan(req run.Request) ([]record.PlannedStep, error) { return run.New().Plan(req) }

// CheckModels is left to the workers, which hold the models.
func (e *Engine) CheckModels(*chain.Chain) []error { return nil }
