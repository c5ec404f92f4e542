package llm

import (
	"context"
	"fmt"
	"sync"
)

// Budget is a run's allowance of model use, shared by all its steps (and
// the chains they call). A request starts only while there is room; its
// answer is capped at the tokens left, and that cap is held for it until
// it answers. A request that finds the room held by requests in flight
// waits for them (bounded by its context) rather than failing: they may
// leave room. A run can pass its token budget only by the input tokens
// of the requests it sent.
type Budget struct {
	mu                  sync.Mutex
	maxTokens, maxCalls int
	tokens, calls       int
	// reserved is the answer caps of requests in flight.
	reserved int
	// released is closed (and replaced) whenever a request in flight
	// ends, waking the requests waiting for room.
	released chan struct{}
}

// NewBudget caps tokens (input plus output) and calls; 0 means no cap. nil
// when there is no cap at all.
func NewBudget(maxTokens, maxCalls int) *Budget {
	if maxTokens <= 0 && maxCalls <= 0 {
		return nil
	}
	return &Budget{maxTokens: max(maxTokens, 0), maxCalls: max(maxCalls, 0), released: make(chan struct{})}
}

// Budgeted wraps p so its requests draw on b. A nil b returns p.
func Budgeted(p Provider, b *Budget) Provider {
	if b == nil {
		return p
	}
	return &budgeted{Provider: p, b: b}
}

type budgeted struct {
	Provider
	b *Budget
}

var _ Provider = (*budgeted)(nil)

// Complete refuses, without sending, once the budget is spent.
func (p *budgeted) Complete(ctx context.Context, req Request) (*Response, error) {
	b := p.b
	// The answer's cap only ever goes down: the step's max_tokens (or the
	// provider default), at most what the budget has left. That cap is
	// reserved while the request is in flight, so parallel steps cannot
	// together spend more than the budget.
	limit := req.MaxTokens
	if limit <= 0 {
		limit = DefaultMaxTokens
	}
	reserve, err := b.admit(ctx, limit)
	if err != nil {
		return nil, &Error{Provider: p.Name(), Message: err.Error(), NotSent: true, Budget: err != ctx.Err()}
	}
	if b.maxTokens > 0 {
		req.MaxTokens = reserve
	}
	resp, err := p.Provider.Complete(ctx, req)
	b.mu.Lock()
	b.reserved -= reserve
	if resp != nil {
		b.tokens += resp.Usage.InputTokens + resp.Usage.OutputTokens
	}
	close(b.released)
	b.released = make(chan struct{})
	b.mu.Unlock()
	return resp, err
}

// admit counts a call and reserves its answer's cap (at most limit),
// waiting while requests in flight hold the room they may give back. It
// fails once the budget is spent, or with ctx's error when ctx ends first.
func (b *Budget) admit(ctx context.Context, limit int) (int, error) {
	for {
		b.mu.Lock()
		switch {
		case b.maxCalls > 0 && b.calls >= b.maxCalls:
			b.mu.Unlock()
			return 0, fmt.Errorf("the run's budget is spent: max_llm_calls %d reached", b.maxCalls)
		case b.maxTokens > 0 && b.tokens >= b.maxTokens:
			b.mu.Unlock()
			return 0, fmt.Errorf("the run's budget is spent: max_tokens %d reached (%d used)", b.maxTokens, b.tokens)
		case b.maxTokens > 0 && b.tokens+b.reserved >= b.maxTokens:
			// the rest is held by calls in flight: wait for one to end
			wake := b.released
			b.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
		b.calls++
		reserve := 0
		if b.maxTokens > 0 {
			reserve = min(limit, b.maxTokens-b.tokens-b.reserved)
			b.reserved += reserve
		}
		b.mu.Unlock()
		return reserve, nil
	}
}
