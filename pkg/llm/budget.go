package llm

import (
	"context"
	"fmt"
	"sync"
)

// Budget is a run's allowance of model use, shared by all its steps (and
// the chains they call). A request starts only while there is room; its
// answer is capped at the tokens left, and that cap is held for it until
// it answers. A run can pass its token budget only by the input tokens of
// the requests it sent.
type Budget struct {
	mu                  sync.Mutex
	maxTokens, maxCalls int
	tokens, calls       int
	// reserved is the answer caps of requests in flight.
	reserved int
}

// NewBudget caps tokens (input plus output) and calls; 0 means no cap. nil
// when there is no cap at all.
func NewBudget(maxTokens, maxCalls int) *Budget {
	if maxTokens <= 0 && maxCalls <= 0 {
		return nil
	}
	return &Budget{maxTokens: max(maxTokens, 0), maxCalls: max(maxCalls, 0)}
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
	reserve := 0
	b.mu.Lock()
	var spent string
	switch {
	case b.maxCalls > 0 && b.calls >= b.maxCalls:
		spent = fmt.Sprintf("max_llm_calls %d reached", b.maxCalls)
	case b.maxTokens > 0 && b.tokens+b.reserved >= b.maxTokens:
		spent = fmt.Sprintf("max_tokens %d reached (%d used, %d reserved by calls in flight)", b.maxTokens, b.tokens, b.reserved)
	}
	if spent == "" {
		b.calls++
		if b.maxTokens > 0 {
			reserve = min(limit, b.maxTokens-b.tokens-b.reserved)
			req.MaxTokens = reserve
			b.reserved += reserve
		}
	}
	b.mu.Unlock()
	if spent != "" {
		return nil, &Error{Provider: p.Name(), Message: "the run's budget is spent: " + spent, NotSent: true}
	}
	resp, err := p.Provider.Complete(ctx, req)
	b.mu.Lock()
	b.reserved -= reserve
	if resp != nil {
		b.tokens += resp.Usage.InputTokens + resp.Usage.OutputTokens
	}
	b.mu.Unlock()
	return resp, err
}
