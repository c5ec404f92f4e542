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
	// maxCost caps what the run's requests cost, in US dollars, at
	// prices; cost is what answered requests cost, reservedCost the most
	// the requests in flight may.
	maxCost, cost, reservedCost float64
	prices                      *Prices
	// released is closed (and replaced) whenever a request in flight
	// ends, waking the requests waiting for room.
	released chan struct{}
}

// NewBudget caps tokens (input plus output) and calls; 0 means no cap. nil
// when there is no cap at all.
func NewBudget(maxTokens, maxCalls int) *Budget {
	return NewCostBudget(maxTokens, maxCalls, 0, nil)
}

// NewCostBudget caps tokens, calls and, when maxCost > 0, what the
// requests cost in US dollars at prices (the list prices when nil). A
// request to a model without a known price is then refused: a budget in
// dollars cannot be kept over tokens of no known cost. nil when there is
// no cap at all.
func NewCostBudget(maxTokens, maxCalls int, maxCost float64, prices *Prices) *Budget {
	if maxTokens <= 0 && maxCalls <= 0 && maxCost <= 0 {
		return nil
	}
	if prices == nil {
		prices = NewPrices(nil)
	}
	return &Budget{maxTokens: max(maxTokens, 0), maxCalls: max(maxCalls, 0), maxCost: max(maxCost, 0), prices: prices, released: make(chan struct{})}
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
	var price Price
	if b.maxCost > 0 {
		model := p.Name() + "/" + req.Model
		pr, ok := b.prices.Of(model)
		if !ok {
			return nil, &Error{Provider: p.Name(), NotSent: true, Budget: true,
				Message: fmt.Sprintf("the run's budget max_cost_usd $%g cannot be kept: no price is known for %s (set one under prices: in config)", b.maxCost, model)}
		}
		price = pr
	}
	a, err := b.admit(ctx, limit, price, estimateInputTokens(req))
	if err != nil {
		return nil, &Error{Provider: p.Name(), Message: err.Error(), NotSent: true, Budget: err != ctx.Err()}
	}
	if b.maxTokens > 0 || a.tokens < limit {
		req.MaxTokens = a.tokens
	}
	resp, err := p.Provider.Complete(ctx, req)
	b.mu.Lock()
	b.reserved -= a.reserved
	b.reservedCost -= a.cost
	if resp != nil {
		b.tokens += resp.Usage.InputTokens + resp.Usage.OutputTokens
		b.cost += price.Cost(resp.Usage)
	}
	close(b.released)
	b.released = make(chan struct{})
	b.mu.Unlock()
	return resp, err
}

// admission is what admit holds for one request: its answer's cap in
// tokens, and the tokens and dollars reserved for it.
type admission struct {
	tokens, reserved int
	cost             float64
}

// admit counts a call and reserves its answer's cap (at most limit), in
// tokens and, with a cost cap, in dollars at price (the input's estimated
// cost and the answer's most), waiting while requests in flight hold the
// room they may give back. It fails once the budget is spent, or with
// ctx's error when ctx ends first.
func (b *Budget) admit(ctx context.Context, limit int, price Price, inputTokens int) (admission, error) {
	for {
		b.mu.Lock()
		inputCost := price.Cost(Usage{InputTokens: inputTokens})
		costRoom := b.maxCost - b.cost - b.reservedCost - inputCost
		outPerToken := price.Output / 1e6
		switch {
		case b.maxCalls > 0 && b.calls >= b.maxCalls:
			b.mu.Unlock()
			return admission{}, fmt.Errorf("the run's budget is spent: max_llm_calls %d reached", b.maxCalls)
		case b.maxTokens > 0 && b.tokens >= b.maxTokens:
			b.mu.Unlock()
			return admission{}, fmt.Errorf("the run's budget is spent: max_tokens %d reached (%d used)", b.maxTokens, b.tokens)
		case b.maxCost > 0 && b.cost >= b.maxCost:
			b.mu.Unlock()
			return admission{}, fmt.Errorf("the run's budget is spent: max_cost_usd $%g reached ($%.6f spent)", b.maxCost, b.cost)
		case b.maxTokens > 0 && b.tokens+b.reserved >= b.maxTokens,
			b.maxCost > 0 && (costRoom <= 0 || outPerToken > 0 && costRoom < outPerToken) && b.reservedCost > 0:
			// the rest is held by calls in flight: wait for one to end
			wake := b.released
			b.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return admission{}, ctx.Err()
			}
		case b.maxCost > 0 && (costRoom <= 0 || outPerToken > 0 && costRoom < outPerToken):
			b.mu.Unlock()
			return admission{}, fmt.Errorf("the run's budget max_cost_usd $%g would be passed: $%.6f spent, and this request's input alone costs about $%.6f", b.maxCost, b.cost, inputCost)
		}
		b.calls++
		a := admission{tokens: limit}
		if b.maxTokens > 0 {
			a.tokens = min(a.tokens, b.maxTokens-b.tokens-b.reserved)
			a.reserved = a.tokens
			b.reserved += a.reserved
		}
		if b.maxCost > 0 {
			if outPerToken > 0 {
				// the answer is capped at what the rest of the budget buys
				a.tokens = max(1, min(a.tokens, int(costRoom/outPerToken)))
			}
			a.cost = inputCost + float64(a.tokens)*outPerToken
			b.reservedCost += a.cost
		}
		b.mu.Unlock()
		return a, nil
	}
}

// estimateInputTokens is a request's input in tokens, roughly (four bytes
// a token, as the providers' own rule of thumb), for the cost it is
// admitted with; what it cost is counted from its usage afterwards.
func estimateInputTokens(req Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Content)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
		for _, r := range m.ToolResults {
			n += len(r.Content)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + 64
	}
	return n/4 + 1
}
