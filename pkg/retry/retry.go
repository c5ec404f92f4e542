package retry

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

// Policy is how often and how patiently a failing operation is tried.
type Policy struct {
	// Attempts in all, at least 1.
	Attempts int
	// Delay before the first retry; each later retry waits Backoff times
	// longer (Backoff 0 or 1: the same delay every time).
	Delay   time.Duration
	Backoff float64
	// MaxWait caps any single wait, a server's requested wait included
	// (0: no cap).
	MaxWait time.Duration
	// Jitter spreads each wait by ±Jitter of itself (0.2: ±20%), so that
	// parallel callers do not retry in lockstep.
	Jitter float64
}

// Retry is one wait between two attempts, as an observer sees it.
type Retry struct {
	// Attempt is the attempt that failed (1-based).
	Attempt int
	Err     error
	Wait    time.Duration
}

// Hooks tailor Do to a caller's errors. Every field may be nil.
type Hooks struct {
	// Retryable says whether a failure may succeed when tried again; nil
	// treats every failure as retryable. An error marked with Permanent
	// is never retried, whatever Retryable says.
	Retryable func(error) bool
	// After is the wait a failure asks for itself (an HTTP Retry-After),
	// used when longer than the policy's delay.
	After func(error) time.Duration
	// OnRetry is told of every wait before it starts.
	OnRetry func(Retry)
}

// Do calls fn until it succeeds, fails for good, spends the policy's
// attempts, or ctx ends. fn is given the 1-based attempt number. It never
// starts an attempt on a cancelled context. It returns fn's last error
// (unwrapped from Permanent), or ctx's error when the context ended a
// wait.
func Do(ctx context.Context, p Policy, h Hooks, fn func(attempt int) error) error {
	attempts := max(p.Attempts, 1)
	delay := p.Delay
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := fn(n)
		if err == nil {
			return nil
		}
		var perm *permanent
		if errors.As(err, &perm) {
			return perm.err
		}
		if ctx.Err() != nil || n >= attempts || (h.Retryable != nil && !h.Retryable(err)) {
			return err
		}
		wait := p.wait(delay, err, h.After)
		if h.OnRetry != nil {
			h.OnRetry(Retry{Attempt: n, Err: err, Wait: wait})
		}
		if !Sleep(ctx, wait) {
			return ctx.Err()
		}
		delay = p.grow(delay)
	}
}

// grow is the delay after delay: Backoff times longer, saturating at
// MaxWait (or the longest Duration) instead of overflowing to a negative
// wait, which would retry without pause.
func (p Policy) grow(delay time.Duration) time.Duration {
	if p.Backoff <= 0 || delay <= 0 {
		return delay
	}
	limit := time.Duration(math.MaxInt64)
	if p.MaxWait > 0 {
		limit = p.MaxWait
	}
	next := float64(delay) * p.Backoff
	if math.IsNaN(next) || next >= float64(limit) {
		return limit
	}
	return time.Duration(next)
}

// wait is the jittered delay, or the failure's own requested wait when it
// asks for longer, capped at MaxWait.
func (p Policy) wait(delay time.Duration, err error, after func(error) time.Duration) time.Duration {
	d := delay
	if d > 0 && p.Jitter > 0 {
		d = time.Duration(float64(d) * (1 - p.Jitter + 2*p.Jitter*rand.Float64()))
	}
	if after != nil {
		if a := after(err); a > d {
			d = a
		}
	}
	if p.MaxWait > 0 && d > p.MaxWait {
		d = p.MaxWait
	}
	return d
}

// Sleep waits d, or less when ctx ends first; it reports whether the wait
// ran its course.
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 || ctx.Value(noWaitsKey{}) != nil {
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

// Permanent marks err as one another attempt cannot mend: Do returns it at
// once. nil stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanent{err}
}

// IsPermanent reports whether err was marked with Permanent.
func IsPermanent(err error) bool {
	var p *permanent
	return errors.As(err, &p)
}

type permanent struct{ err error }

func (e *permanent) Error() string { return e.err.Error() }
func (e *permanent) Unwrap() error { return e.err }

// noWaitsKey marks a context whose waits are skipped.
type noWaitsKey struct{}

// WithoutWaits makes every wait Sleep is asked for under ctx end at once,
// as if the time had passed: a chain test replays retries and rate limits
// in virtual time, and stays as fast as the steps themselves.
func WithoutWaits(ctx context.Context) context.Context {
	return context.WithValue(ctx, noWaitsKey{}, true)
}
