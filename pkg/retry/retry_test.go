package retry

import (
	"context"
	"errors"
	"testing"
	"time"
)

var errFlaky = errors.New("flaky")

func TestDo(t *testing.T) {
	fatal := errors.New("fatal")
	tests := []struct {
		name      string
		policy    Policy
		hooks     Hooks
		failures  []error // what each attempt returns; past the end: success
		wantCalls int
		wantErr   error
		wantWaits []time.Duration
	}{
		{name: "first try", policy: Policy{Attempts: 3}, wantCalls: 1},
		{name: "succeeds on the third", policy: Policy{Attempts: 3, Delay: time.Millisecond, Backoff: 2},
			failures: []error{errFlaky, errFlaky}, wantCalls: 3, wantWaits: []time.Duration{time.Millisecond, 2 * time.Millisecond}},
		{name: "attempts spent", policy: Policy{Attempts: 2}, failures: []error{errFlaky, errFlaky, errFlaky},
			wantCalls: 2, wantErr: errFlaky, wantWaits: []time.Duration{0}},
		{name: "zero attempts means one", policy: Policy{}, failures: []error{errFlaky}, wantCalls: 1, wantErr: errFlaky},
		{name: "not retryable", policy: Policy{Attempts: 5}, hooks: Hooks{Retryable: func(err error) bool { return err != fatal }},
			failures: []error{fatal}, wantCalls: 1, wantErr: fatal},
		{name: "permanent", policy: Policy{Attempts: 5}, failures: []error{Permanent(fatal)}, wantCalls: 1, wantErr: fatal},
		{name: "the failure's own wait is longer", policy: Policy{Attempts: 2, Delay: time.Millisecond},
			hooks:    Hooks{After: func(error) time.Duration { return 3 * time.Millisecond }},
			failures: []error{errFlaky}, wantCalls: 2, wantWaits: []time.Duration{3 * time.Millisecond}},
		{name: "capped wait", policy: Policy{Attempts: 2, Delay: time.Hour, MaxWait: 2 * time.Millisecond},
			failures: []error{errFlaky}, wantCalls: 2, wantWaits: []time.Duration{2 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var waits []time.Duration
			h := tt.hooks
			h.OnRetry = func(r Retry) { waits = append(waits, r.Wait) }
			err := Do(context.Background(), tt.policy, h, func(n int) error {
				calls++
				if n != calls {
					t.Errorf("attempt %d numbered %d", calls, n)
				}
				if n <= len(tt.failures) {
					return tt.failures[n-1]
				}
				return nil
			})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if IsPermanent(err) {
				t.Error("Do returned the Permanent wrapper")
			}
			if calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls, tt.wantCalls)
			}
			if len(waits) != len(tt.wantWaits) {
				t.Fatalf("waits = %v, want %v", waits, tt.wantWaits)
			}
			for i := range waits {
				if waits[i] != tt.wantWaits[i] {
					t.Errorf("wait %d = %v, want %v", i, waits[i], tt.wantWaits[i])
				}
			}
		})
	}
}

func TestDoJitterStaysInRange(t *testing.T) {
	p := Policy{Delay: 100 * time.Millisecond, Jitter: 0.2}
	for range 200 {
		if d := p.wait(p.Delay, errFlaky, nil); d < 80*time.Millisecond || d > 120*time.Millisecond {
			t.Fatalf("jittered wait %v outside ±20%%", d)
		}
	}
}

func TestDoNeverStartsOnACancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := Do(ctx, Policy{Attempts: 3}, Hooks{}, func(int) error { called = true; return nil })
	if called || !errors.Is(err, context.Canceled) {
		t.Fatalf("called=%v err=%v", called, err)
	}
}

func TestDoStopsWaitingWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := Do(ctx, Policy{Attempts: 3, Delay: time.Hour}, Hooks{OnRetry: func(Retry) { cancel() }}, func(int) error {
		calls++
		return errFlaky
	})
	if calls != 1 || !errors.Is(err, context.Canceled) {
		t.Fatalf("calls=%d err=%v", calls, err)
	}
}

func TestPermanentNil(t *testing.T) {
	if Permanent(nil) != nil {
		t.Fatal("Permanent(nil) is not nil")
	}
}

// TestBackoffNeverOverflows holds that an absurd delay or backoff saturates
// at the cap instead of overflowing to a negative wait (a retry without
// pause).
func TestBackoffNeverOverflows(t *testing.T) {
	for _, p := range []Policy{
		{Attempts: 6, Delay: 1 << 62, Backoff: 2, MaxWait: 2 * time.Millisecond},
		{Attempts: 6, Delay: time.Millisecond, Backoff: 1e308, MaxWait: 2 * time.Millisecond},
	} {
		var waits []time.Duration
		_ = Do(context.Background(), p, Hooks{OnRetry: func(r Retry) { waits = append(waits, r.Wait) }},
			func(int) error { return errFlaky })
		for i, w := range waits[1:] {
			if w != 2*time.Millisecond {
				t.Errorf("delay %v backoff %g: wait %d is %v, want the cap", p.Delay, p.Backoff, i+2, w)
			}
		}
	}
	if d := (Policy{Backoff: 1e308}).grow(time.Second); d <= 0 {
		t.Errorf("without a cap the delay grew to %v", d)
	}
}
