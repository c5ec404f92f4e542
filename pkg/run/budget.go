package run

import (
	"context"
	"fmt"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// budget is a run's allowance of model use, shared by all its steps (and
// the chains they call). A request starts only while there is room; its
// answer is capped at the tokens left, and that cap is held for it until
// it answers. A run can pass its token budget only by the input tokens of
// the requests it sent.
type budget struct {
	mu                  sync.Mutex
	maxTokens, maxCalls int
	tokens, calls       int
	// reserved is the answer caps of requests in flight.
	reserved int
}

// newBudget combines the chain's budget with --max-tokens (the smaller
// wins). nil when there is no cap.
func newBudget(c *chain.Chain, maxTokens int) *budget {
	b := &budget{maxTokens: maxTokens}
	if c.Budget != nil {
		if c.Budget.MaxTokens > 0 && (b.maxTokens == 0 || c.Budget.MaxTokens < b.maxTokens) {
			b.maxTokens = c.Budget.MaxTokens
		}
		b.maxCalls = c.Budget.MaxLLMCalls
	}
	if b.maxTokens == 0 && b.maxCalls == 0 {
		return nil
	}
	return b
}

// provider wraps p so its requests draw on the budget.
func (b *budget) provider(p llm.Provider) llm.Provider {
	if b == nil {
		return p
	}
	return &budgeted{Provider: p, b: b}
}

type budgeted struct {
	llm.Provider
	b *budget
}

func (p *budgeted) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	b := p.b
	// The answer's cap only ever goes down: the step's max_tokens (or the
	// provider default), at most what the budget has left. That cap is
	// reserved while the request is in flight, so parallel steps cannot
	// together spend more than the budget.
	limit := req.MaxTokens
	if limit <= 0 {
		limit = llm.DefaultMaxTokens
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
		return nil, &llm.Error{Provider: p.Name(), Message: "the run's budget is spent: " + spent, NotSent: true}
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
