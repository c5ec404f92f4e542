package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Policy is how often and how patiently a transient failure is retried on
// one model.
type Policy struct {
	// Attempts in all, at least 1.
	Attempts int
	// Delay before the first retry; each retry waits Backoff times longer.
	Delay   time.Duration
	Backoff float64
	// MaxWait caps any single wait, Retry-After included.
	MaxWait time.Duration
}

// DefaultPolicy is used when a step sets no retry: two more attempts after
// a transient failure, as the SDKs do by default.
var DefaultPolicy = Policy{Attempts: 3, Delay: 500 * time.Millisecond, Backoff: 2, MaxWait: time.Minute}

// Target is one model to try: a provider and its model name.
type Target struct {
	Provider Provider
	Model    string
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
}

// Call sends req to the targets in order: the first with its retries, then
// each fallback, moving on only after a transient failure. A permanent
// error (a bad request, a bad key) fails at once: it would fail the same
// on every model. observe, when set, sees every request sent. It returns
// the answer, the target that gave it, and how many requests were sent.
func Call(ctx context.Context, targets []Target, req Request, p Policy, observe func(Attempt)) (*Response, Target, int, error) {
	if p.Attempts < 1 {
		p.Attempts = 1
	}
	sent := 0
	var last error
	for _, t := range targets {
		delay := p.Delay
		for n := 1; n <= p.Attempts; n++ {
			if err := ctx.Err(); err != nil {
				return nil, t, sent, err
			}
			r := req
			r.Model = t.Model
			start := time.Now()
			resp, err := t.Provider.Complete(ctx, r)
			if !notSent(err) {
				sent++
			}
			a := Attempt{Target: t, Number: n, Err: err, Duration: time.Since(start)}
			if resp != nil {
				a.Usage = resp.Usage
			}
			if err == nil {
				if observe != nil {
					observe(a)
				}
				return resp, t, sent, nil
			}
			last = err
			if ctx.Err() != nil {
				return nil, t, sent, ctx.Err()
			}
			if !IsTransient(err) {
				if observe != nil {
					observe(a)
				}
				return nil, t, sent, err
			}
			if n == p.Attempts {
				if observe != nil {
					observe(a)
				}
				break
			}
			a.Wait = wait(delay, err, p.MaxWait)
			if observe != nil {
				observe(a)
			}
			if !sleep(ctx, a.Wait) {
				return nil, t, sent, ctx.Err()
			}
			if p.Backoff > 0 {
				delay = time.Duration(float64(delay) * p.Backoff)
			}
		}
	}
	return nil, targets[len(targets)-1], sent, last
}

// wait is the jittered backoff delay, or the server's Retry-After when it
// asks for longer, capped at max.
func wait(delay time.Duration, err error, max time.Duration) time.Duration {
	d := delay
	if d > 0 {
		// ±20% jitter so parallel steps do not retry in lockstep
		d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	}
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > d {
		d = e.RetryAfter
	}
	if max > 0 && d > max {
		d = max
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func notSent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.NotSent
}
