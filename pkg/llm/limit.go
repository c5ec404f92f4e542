package llm

import (
	"context"
	"time"

	"golang.org/x/time/rate"

	"github.com/chainrun/chainrun/pkg/retry"
)

// Limits bound how hard one provider is driven: at most Concurrent
// requests in flight and RequestsPerMinute started per minute, shared by
// every step of a run. Zero means no bound.
type Limits struct {
	Concurrent        int
	RequestsPerMinute int
}

// Limited wraps a provider so that its requests respect l.
func Limited(p Provider, l Limits) Provider {
	if l.Concurrent <= 0 && l.RequestsPerMinute <= 0 {
		return p
	}
	lp := &limited{Provider: p}
	if l.Concurrent > 0 {
		lp.slots = make(chan struct{}, l.Concurrent)
	}
	if l.RequestsPerMinute > 0 {
		// a burst of one: requests are spread evenly over the minute, as a
		// provider's per-minute limit counts them in any window
		lp.rate = rate.NewLimiter(rate.Every(time.Minute/time.Duration(l.RequestsPerMinute)), 1)
	}
	return lp
}

type limited struct {
	Provider
	slots chan struct{}
	rate  *rate.Limiter
}

var _ Provider = (*limited)(nil)

// Complete waits for a slot and for its turn under the rate, then calls
// the provider. Waiting ends early when ctx does.
func (l *limited) Complete(ctx context.Context, req Request) (*Response, error) {
	if l.slots != nil {
		select {
		case l.slots <- struct{}{}:
			defer func() { <-l.slots }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if l.rate != nil {
		// a reservation, not Wait: Wait fails at once when the turn comes
		// after the context's deadline, where a request should wait for
		// it like any other slow start
		turn := l.rate.Reserve()
		if !retry.Sleep(ctx, turn.Delay()) {
			turn.Cancel()
			return nil, ctx.Err()
		}
	}
	return l.Provider.Complete(ctx, req)
}
