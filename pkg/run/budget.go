package run

import (
	"context"
	"fmt"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// budget is a run's allowance of model use, shared by all its steps (and
// the chains they call). A request starts only while there is room, and
// its answer is capped at the tokens left, so a run overshoots by at most
// one request's input.
type budget struct {
	mu                  sync.Mutex
	maxTokens, maxCalls int
	tokens, calls       int
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
	b.mu.Lock()
	var spent string
	switch {
	case b.maxCalls > 0 && b.calls >= b.maxCalls:
		spent = fmt.Sprintf("max_llm_calls %d reached", b.maxCalls)
	case b.maxTokens > 0 && b.tokens >= b.maxTokens:
		spent = fmt.Sprintf("max_tokens %d reached (%d used)", b.maxTokens, b.tokens)
	}
	if spent == "" {
		b.calls++
		if b.maxTokens > 0 {
			left := b.maxTokens - b.tokens
			if req.MaxTokens == 0 || req.MaxTokens > left {
				req.MaxTokens = left
			}
		}
	}
	b.mu.Unlock()
	if spent != "" {
		return nil, &llm.Error{Provider: p.Name(), Message: "the run's budget is spent: " + spent}
	}
	resp, err := p.Provider.Complete(ctx, req)
	if resp != nil {
		b.mu.Lock()
		b.tokens += resp.Usage.InputTokens + resp.Usage.OutputTokens
		b.mu.Unlock()
	}
	return resp, err
}
