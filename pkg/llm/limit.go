package llm

import (
	"context"
	"sync"
	"time"

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
		lp.interval = time.Minute / time.Duration(l.RequestsPerMinute)
	}
	return lp
}

type limited struct {
	Provider
	slots    chan struct{}
	interval time.Duration

	mu   sync.Mutex
	next time.Time // earliest start of the next request
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
	if l.interval > 0 {
		l.mu.Lock()
		now := time.Now()
		start := l.next
		if start.Before(now) {
			start = now
		}
		l.next = start.Add(l.interval)
		l.mu.Unlock()
		if !retry.Sleep(ctx, time.Until(start)) {
			return nil, ctx.Err()
		}
	}
	return l.Provider.Complete(ctx, req)
}
