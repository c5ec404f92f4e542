package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// spender answers with fixed usage and records the answer cap it was asked for.
type spender struct {
	in, out int
	caps    []int
}

func (s *spender) Name() string { return "openai" }

func (s *spender) Complete(_ context.Context, req Request) (*Response, error) {
	s.caps = append(s.caps, req.MaxTokens)
	return &Response{Text: "ok", Usage: Usage{InputTokens: s.in, OutputTokens: s.out}}, nil
}

// TestACostBudgetStopsBeforeTheRequestThatWouldPassIt: requests go out
// while the budget has room, each answer capped at what the rest buys;
// once spent, the next is refused without being sent, naming the cap.
func TestACostBudgetStopsBeforeTheRequestThatWouldPassIt(t *testing.T) {
	// $1 in, $10 out per million tokens; each request spends 100k in and
	// 20k out: $0.30
	prices := NewPrices(map[string]Price{"openai/m": {Input: 1, Output: 10}})
	s := &spender{in: 100_000, out: 20_000}
	b := NewCostBudget(0, 0, 1.0, prices)
	p := Budgeted(s, b)
	sent := 0
	var err error
	for range 10 {
		if _, err = p.Complete(context.Background(), Request{Model: "m", MaxTokens: 200_000, Messages: []Message{{Role: User, Content: "hi"}}}); err != nil {
			break
		}
		sent++
	}
	if sent != 4 {
		t.Fatalf("%d requests went out under a $1 budget of $0.30 each, want 4 (the 4th capped)", sent)
	}
	if s.caps[0] < 99_000 || s.caps[0] > 100_000 || s.caps[3] > 10_000 || s.caps[3] < 1 {
		t.Errorf("answer caps %v: the first at what $1 buys, the last at what is left", s.caps)
	}
	var e *Error
	if !errors.As(err, &e) || !e.NotSent || !e.Budget || !strings.Contains(err.Error(), "max_cost_usd $1 reached") {
		t.Fatalf("the refusal: %v", err)
	}
}

func TestACostBudgetNeedsAPrice(t *testing.T) {
	p := Budgeted(&spender{in: 1, out: 1}, NewCostBudget(0, 0, 5, NewPrices(nil)))
	_, err := p.Complete(context.Background(), Request{Model: "house-model-7"})
	var e *Error
	if !errors.As(err, &e) || !e.NotSent || !strings.Contains(err.Error(), "no price is known for openai/house-model-7") || !strings.Contains(err.Error(), "prices:") {
		t.Fatalf("a model without a price under a cost budget: %v", err)
	}
	if NewCostBudget(0, 0, 0, nil) != nil {
		t.Error("no cap, no budget")
	}
}

func TestACostBudgetRefusesAnInputItCannotPay(t *testing.T) {
	prices := NewPrices(map[string]Price{"openai/m": {Input: 1000, Output: 1000}})
	p := Budgeted(&spender{in: 1, out: 1}, NewCostBudget(0, 0, 0.01, prices))
	_, err := p.Complete(context.Background(), Request{Model: "m", Messages: []Message{{Role: User, Content: strings.Repeat("x", 400)}}})
	if err == nil || !strings.Contains(err.Error(), "would be passed") {
		t.Fatalf("an input that alone costs more than the budget: %v", err)
	}
}
