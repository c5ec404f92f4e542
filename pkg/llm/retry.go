package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/retry"
)

// Policy is how often and how patiently a transient failure is retried on
// one model: the one retry policy of chainrun.
type Policy = retry.Policy

// DefaultPolicy is used when a step sets no retry: two more attempts after
// a transient failure, as the vendors' SDKs do by default, ±20% jitter.
var DefaultPolicy = Policy{Attempts: 3, Delay: 500 * time.Millisecond, Backoff: 2, MaxWait: time.Minute, Jitter: 0.2}

// Target is one model to try: a provider and its model name.
type Target struct {
	Provider Provider
	Model    string
	// Kind is the API the provider speaks (KindOpenAI, KindAnthropic),
	// for what its requests may carry; empty when not known.
	Kind string
	// Params are the model alias's params (config model_aliases), under
	// the request's own.
	Params Params
}

// Label is provider/model, as results report it.
func (t Target) Label() string { return t.Provider.Name() + "/" + t.Model }

// Attempt describes one request sent, for the audit trail.
type Attempt struct {
	Target   Target
	Number   int // 1-based, per target
	Err      error
	Wait     time.Duration // before the next attempt, when retrying
	Duration time.Duration
	Usage    Usage
	// Request is what was asked, and Response what came back (nil when
	// nothing did): traces name the model that answered and why it
	// stopped, and show the messages when the user asks for them.
	Request  *Request
	Response *Response
}

// Sent reports whether the attempt's request left this process (a spent
// budget refuses before sending): only those count as calls.
func (a Attempt) Sent() bool { return !notSent(a.Err) }

// Retrying is a target whose transient failures are retried under a
// policy. Its allowance, Policy.Attempts requests, is shared by every
// Complete call made through it: a step that asks again after a broken
// guardrail never sends one model more than its retry max in all.
type Retrying struct {
	target  Target
	policy  Policy
	observe func(Attempt)

	mu   sync.Mutex
	sent int
	last error
	// done, once set, refuses every later request: the caller gave up on
	// this model's answers (Spend).
	done error
}

var _ Provider = (*Retrying)(nil)

// ErrAllowanceSpent is a request a Retrying target refused without
// sending: its allowance of requests was spent by earlier ones.
var ErrAllowanceSpent = errors.New("retry allowance spent")

// WithRetry wraps target t with policy p. observe, when set, sees every
// request sent, and every one a budget refused; a request refused because
// the allowance is spent is not observed (nothing was asked).
func WithRetry(t Target, p Policy, observe func(Attempt)) *Retrying {
	return &Retrying{target: t, policy: p, observe: observe}
}

// Name is the wrapped provider's name.
func (r *Retrying) Name() string { return r.target.Provider.Name() }

// Label is the target's provider/model.
func (r *Retrying) Label() string { return r.target.Label() }

// Spend gives up on the target: every later request is refused without
// sending, as when its allowance ran out, so that a fallback is asked
// next. A caller spends a model whose answers kept failing its checks
// (cause), which no retry of a transient failure would see.
func (r *Retrying) Spend(cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = cause
}

// Complete sends req to the target's model (req.Model is ignored),
// retrying transient failures while the allowance lasts. Once the
// allowance is spent it refuses without sending, with a transient error
// so that a fallback model is tried next.
func (r *Retrying) Complete(ctx context.Context, req Request) (*Response, error) {
	req.Model = r.target.Model
	if !r.target.Params.IsZero() {
		req.Params = req.Params.Over(r.target.Params)
		if req.MaxTokens == 0 {
			req.MaxTokens = req.Params.MaxOutputTokens
		}
	}
	r.mu.Lock()
	left := max(r.policy.Attempts, 1) - r.sent
	last, done := r.last, r.done
	r.mu.Unlock()
	if done != nil {
		return nil, &Error{Provider: r.Name(), Transient: true, NotSent: true, Err: ErrAllowanceSpent,
			Message: fmt.Sprintf("%s is not asked again: %v", r.target.Label(), done)}
	}
	if left <= 0 {
		return nil, &Error{Provider: r.Name(), Transient: true, NotSent: true, Err: ErrAllowanceSpent,
			Message: fmt.Sprintf("%s: the retry allowance of %d requests is spent (last: %v)", r.target.Label(), max(r.policy.Attempts, 1), last)}
	}
	p := r.policy
	p.Attempts = left
	var resp *Response
	var attempt Attempt
	err := retry.Do(ctx, p, retry.Hooks{
		Retryable: retryable,
		After:     retryAfterOf,
		OnRetry: func(w retry.Retry) {
			attempt.Wait = w.Wait
			r.report(attempt)
		},
	}, func(n int) error {
		start := time.Now()
		var err error
		resp, err = r.target.Provider.Complete(ctx, req)
		if err == nil && resp.FinishReason == FinishLength && !req.CutIsAnswer {
			err = cutOff(r.Name(), req.MaxTokens)
		}
		attempt = Attempt{Target: r.target, Number: r.count(err), Err: err, Duration: time.Since(start), Request: &req, Response: resp}
		if resp != nil {
			attempt.Usage = resp.Usage
			if resp.Via == "" {
				resp.Via = r.target.Label()
			}
		}
		if err != nil && ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				// cut by the caller's deadline (a step's timeout): sent,
				// and the last word on this call
				r.report(attempt)
			}
			return retry.Permanent(ctx.Err())
		}
		if err == nil || !retryable(err) || n == p.Attempts {
			// the last word on this call: no wait follows it
			r.report(attempt)
		}
		return err
	})
	if err != nil {
		if DeclinedReason(err) != "" || !retryable(err) && IsTransient(err) {
			// it declined or was cut off, or its server said not to ask again: later
			// questions of the same caller go to the next model at once
			r.Spend(err)
		}
		return nil, err
	}
	return resp, nil
}

// count records one request and returns its number on this target.
func (r *Retrying) count(err error) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent++
	if err != nil {
		r.last = err
	}
	return r.sent
}

func (r *Retrying) report(a Attempt) {
	if r.observe != nil {
		r.observe(a)
	}
}

// retryAfterOf is the wait a provider asked for (Retry-After).
func retryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// Call sends req to the targets in order: the first with its retries, then
// each fallback, moving on only after a transient failure. A permanent
// error (a bad request, a bad key) fails at once: it would fail the same
// on every model. observe, when set, sees every request sent. It returns
// the answer, the target that gave it, and how many requests were sent.
// It is WithRetry and Fallback composed, for callers that ask one
// question once.
func Call(ctx context.Context, targets []Target, req Request, p Policy, observe func(Attempt)) (*Response, Target, int, error) {
	sent := 0
	last := targets[len(targets)-1]
	counted := func(a Attempt) {
		if a.Sent() {
			sent++
		}
		last = a.Target
		if observe != nil {
			observe(a)
		}
	}
	wrapped := make([]Provider, len(targets))
	for i, t := range targets {
		wrapped[i] = WithRetry(t, p, counted)
	}
	resp, err := Fallback(wrapped...).Complete(ctx, req)
	return resp, last, sent, err
}

func notSent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.NotSent
}
