package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/retry"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// outcome is what one execution of a step's body produced.
type outcome struct {
	Value  interp.Value
	stderr string
	// stdout is a command's standard output as captured, for the tail a
	// failure keeps (value is what a success stores).
	stdout string
	// status is the HTTP status of an http step.
	status int
	// model, usage and finish describe an agent step's model calls.
	model  string
	usage  record.Usage
	finish string
	// cached is an answer served from the cache.
	cached bool
	// toolCalls counts the tool calls of an agent step's tool loop.
	toolCalls int
	// exitCode is a command's exit status.
	exitCode int
	// result is a task chain task's result, which its branches match.
	result string
	// decision, score and answer are what a router, evaluator or gate
	// decided (decide.go).
	decision string
	score    *float64
	answer   string
}

// permanentError is a failure that another attempt cannot mend (a
// reference with no value, a malformed request).
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// RunStep takes one step from its condition to its stored output. It
// reports whether the step's early_exit_if held.
func (x *Execution) RunStep(ctx context.Context, s *chain.Step) (*record.StepResult, bool) {
	return x.runStepNoted(ctx, s, "")
}

// runStepNoted is runStep with a note added to the step's prompt (an
// evaluation fed back to the step it runs again).
func (x *Execution) runStepNoted(ctx context.Context, s *chain.Step, note string) (*record.StepResult, bool) {
	if x.Engine.Remote != nil && !task.InWorkflow(s.Kind) {
		return x.remoteStep(ctx, s, note)
	}
	return x.runStepIn(ctx, s, Scope{Vars: x.Vars, note: note})
}

// runStepIn is runStep with what the step reads besides the run's
// variables in sc (a handler's {run}).
func (x *Execution) runStepIn(ctx context.Context, s *chain.Step, sc Scope) (*record.StepResult, bool) {
	l := x.Engine
	ctx = llm.WithCaller(ctx, callerOf(ctx, s.ID))
	start := l.Now()
	x.Emit(event.Event{Time: start, Type: event.StepStarted, Step: s.ID, Kind: string(s.Kind), Model: x.firstModel(s)})
	sr := &record.StepResult{ID: s.ID}
	finish := func(status record.StepStatus, errText, reason string) (*record.StepResult, bool) {
		if status == record.StepFailed && ctx.Err() != nil {
			// stopped by the run, whatever it was doing (a pre_tool, a
			// request, a called chain): said the same way every time
			status, errText, reason = record.Stopped(ctx)
		}
		sr.Status, sr.Error, sr.Reason = status, errText, reason
		sr.MaskTexts(x.Mask)
		sr.DurationMS = l.Now().Sub(start).Milliseconds()
		e := event.Event{Type: event.StepFinished, Step: s.ID,
			Kind: string(s.Kind), Status: status, Error: errText, Detail: reason, Attempt: sr.Attempts, DurationMS: sr.DurationMS, Model: sr.Model}
		sr.Usage.Describe(&e)
		x.Emit(e)
		return sr, false
	}
	if cond := s.C().Condition; cond != nil {
		holds, err := cond.HoldsContext(ctx, sc.ExprEnv(cond.Names))
		if err != nil {
			x.SetOutput(s, interp.Value{})
			return finish(record.StepFailed, "condition: "+err.Error(), "")
		}
		if !holds {
			x.SetOutput(s, interp.Value{})
			return finish(record.StepSkipped, "", "condition is false: "+s.Condition)
		}
	}
	var err error
	if s.ForEach == "" {
		// a loop runs its pre_tools per item, with {item}
		sc, err = x.preTools(ctx, s, sc)
	}
	if err != nil {
		if s.ContinueOnError {
			x.SetOutput(s, interp.Value{})
		}
		return finish(record.StepFailed, err.Error(), "")
	}
	var out outcome
	if s.ForEach != "" {
		out, sr.Attempts, err = x.loopOrStandIn(ctx, s, sc)
	} else {
		out, sr.Attempts, err = x.attempts(ctx, s, sc)
	}
	if out.usage.LLMCalls > 0 || out.usage.Cached > 0 {
		u := out.usage
		sr.Usage, sr.Model = &u, out.model
	}
	sr.FinishReason = out.finish
	if d := llm.DeclinedReason(err); d != "" {
		// the model declined: no answer, and the result says why
		sr.FinishReason = d
	}
	sr.ToolCalls = out.toolCalls
	sr.Result = out.result
	sr.ExitCode, sr.ErrOut = out.exitCode, x.Mask(strings.TrimSpace(out.stderr))
	sr.Decision, sr.Score, sr.Answer = out.decision, out.score, out.answer
	if status, reason, since, held := held(err); held {
		x.SetOutput(s, interp.Value{})
		sr.WaitingSince = since
		return finish(status, "", reason)
	}
	if err != nil {
		if s.ContinueOnError {
			// dependents run and read an empty output (and the status an
			// http step got, 0 when none)
			x.SetOutput(s, interp.Value{})
			x.setStatus(s, out.status)
		}
		// masked whole before the cut, so no part of a secret is left
		sr.Stderr, sr.Stdout = record.FailureTail(x.Mask(out.stderr)), record.FailureTail(x.Mask(out.stdout))
		if budgetRefused(err) && ctx.Err() == nil {
			x.markRefused(s.ID)
		}
		return finish(record.StepFailed, err.Error(), "")
	}
	x.SetOutput(s, out.Value)
	x.setStatus(s, out.status)
	exit := false
	if e := s.C().EarlyExitIf; e != nil {
		holds, err := e.HoldsContext(ctx, sc.ExprEnv(e.Names))
		if err != nil {
			return finish(record.StepFailed, "early_exit_if: "+err.Error(), "")
		}
		exit = holds
	}
	status := record.StepSucceeded
	if out.cached {
		status = record.StepCached
	}
	res, _ := finish(status, "", "")
	return res, exit
}

// callerOf names a step's model requests: its id, under the step that
// runs it (a chain or workflow step's callee) as outer/inner.
func callerOf(ctx context.Context, id string) string {
	if outer := llm.Caller(ctx); outer != "" {
		return outer + "/" + id
	}
	return id
}

// setStatus stores an http step's status code as <output_var>_status.
func (x *Execution) setStatus(s *chain.Step, status int) {
	if s.Kind == chain.KindHTTP && s.OutputVar != "" {
		x.Vars.Set(s.OutputVar+"_status", interp.Value{Text: fmt.Sprint(status), Data: float64(status)})
	}
}

func (x *Execution) SetOutput(s *chain.Step, v interp.Value) {
	if s.OutputVar != "" {
		v.JSON = v.JSON || s.OutputSchema == "json"
		x.Vars.Set(s.OutputVar, v)
	}
}

// attempts runs the step's body until it succeeds, its retry policy is
// spent, or the run is cancelled. Guardrail violations count as failures;
// an agent step's answer is checked inside its body (once, on the text it
// stores), any other step's output here. An agent step's retries share
// one allowance with its model requests: retry max N sends one model at
// most N requests in all.
func (x *Execution) attempts(ctx context.Context, s *chain.Step, sc Scope) (outcome, int, error) {
	// a fallback executor sends the key of the executor it stands in for
	primary := s.Primary()
	sc, err := x.keyScope(primary, primary.KeyTransition(), sc)
	if err != nil {
		return outcome{}, 0, err
	}
	var t *tries
	if s.Kind.Conversational() {
		t = &tries{}
	}
	var used record.Usage
	if n := x.attemptOnly; n > 0 {
		// a durable engine makes this step's retries: one attempt here
		out, err := x.attempt(ctx, s, sc, t, &used, n)
		var perm *permanentError
		x.retryLeft = err != nil && ctx.Err() == nil && !errors.As(err, &perm) && n < s.Attempts()
		return out, n, err
	}
	p := retry.Policy{Attempts: x.stepAttempts(s, t)}
	if p.Attempts <= 1 {
		// the common case, without the retry machinery
		if ctx.Err() != nil {
			return outcome{}, 0, ctx.Err()
		}
		x.Emit(event.Event{Type: event.StepAttempt, Step: s.ID, Attempt: 1})
		out, err := x.once(x.withAttempt(ctx, s.ID, 1), s, sc, t)
		err = x.checkAttempt(s, t, &used, &out, err)
		return out, 1, err
	}
	if s.Retry != nil {
		p.Delay, p.Backoff = time.Duration(s.Retry.DelayMS)*time.Millisecond, s.Retry.Backoff
		// backoff never grows a wait past the longest delay_ms allowed
		p.MaxWait = chain.MaxRetryDelayMS * time.Millisecond
		if s.Retry.MaxDelayMS > 0 {
			p.MaxWait = time.Duration(s.Retry.MaxDelayMS) * time.Millisecond
		}
	}
	var out outcome
	var lastErr error
	attempts := 0
	err = retry.Do(ctx, p, retry.Hooks{
		Retryable: func(err error) bool {
			var perm *permanentError
			return ctx.Err() == nil && !errors.As(err, &perm)
		},
		OnRetry: func(r retry.Retry) {
			x.Emit(event.Event{Type: event.StepAttempt, Step: s.ID,
				Attempt: r.Attempt, Status: event.Retrying, Error: r.Err.Error(), Detail: "retry in " + r.Wait.String()})
		},
	}, func(n int) error {
		attempts = n
		prev := out
		var err error
		out, err = x.attempt(ctx, s, sc, t, &used, n)
		if errors.Is(err, llm.ErrAllowanceSpent) && lastErr != nil {
			// the models' requests ran out before this attempt could
			// ask: what failed is the answer before, not the allowance
			out.Value, out.finish = prev.Value, prev.finish
			return &permanentError{lastErr}
		}
		var perm *permanentError
		if t != nil && err != nil && ctx.Err() == nil && !errors.As(err, &perm) {
			// an answer that broke a check, or a request that timed
			// out: it counts against the model asked
			t.rejected(s, t.model, err)
		}
		lastErr = err
		return err
	})
	return out, attempts, err
}

// attempt runs the step's body once and checks its output.
func (x *Execution) attempt(ctx context.Context, s *chain.Step, sc Scope, t *tries, used *record.Usage, n int) (outcome, error) {
	x.Emit(event.Event{Type: event.StepAttempt, Step: s.ID, Attempt: n})
	out, err := x.once(x.withAttempt(ctx, s.ID, n), s, sc, t)
	err = x.checkAttempt(s, t, used, &out, err)
	return out, err
}

// checkAttempt checks what one attempt produced and adds up its model use
// (used; an agent step's is kept in t).
func (x *Execution) checkAttempt(s *chain.Step, t *tries, used *record.Usage, out *outcome, err error) error {
	if t == nil {
		used.Add(out.usage)
		out.usage = *used
		if err == nil {
			err = guard.Error(guard.Check(ask.Rules(s), out.Value.Text))
		}
		return err
	}
	// an agent step's answer was checked once, in its body; a broken
	// guardrail is told to the model on the next attempt
	out.usage = t.usage
	if out.model == "" {
		out.model = t.model
	}
	var ve *guard.ViolationError
	if errors.As(err, &ve) {
		t.history = append(t.history, ask.Feedback(out.Value.Text, ve)...)
	}
	return err
}

// once runs the step's body one time under its timeout.
func (x *Execution) once(ctx context.Context, s *chain.Step, sc Scope, t *tries) (outcome, error) {
	if s.TimeoutMS == 0 && (s.Kind == chain.KindParallel || s.Kind == chain.KindPipeline || s.Kind == chain.KindWorkflow) {
		// the steps inside have their own limits
		return x.execute(ctx, s, sc, t)
	}
	limit := time.Duration(s.Timeout()) * time.Millisecond
	actx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	out, err := x.execute(actx, s, sc, t)
	if err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return out, fmt.Errorf("timed out after %s (timeout_ms: %d)", limit, s.Timeout())
	}
	return out, err
}
