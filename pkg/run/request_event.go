package run

import (
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// WithPrices prices the run's model requests (config prices: over the
// built-in list, llm.NewPrices); without it the list alone.
func WithPrices(p *llm.Prices) Option { return func(l *Local) { l.prices = p } }

// WithCaptureContent puts each request's messages and answer on its
// llm.call event (masked), for traces that asked for them
// (otel.capture_content). Off, no event carries them.
func WithCaptureContent(on bool) Option { return func(l *Local) { l.captureContent = on } }

// DescribeRequest completes the llm.call event of one request a: the
// model that answered and why it stopped, what the request cost (added to
// u, with the model named when it has no known price), and its messages
// when the engine captures them.
func (x *Execution) DescribeRequest(e *event.Event, a llm.Attempt, u *record.Usage) {
	if a.Response != nil {
		e.ResponseModel, e.FinishReason = a.Response.Model, a.Response.FinishReason
	}
	e.CacheReadTokens, e.CacheWriteTokens = a.Usage.CacheReadTokens, a.Usage.CacheWriteTokens
	u.CacheReadTokens += a.Usage.CacheReadTokens
	u.CacheWriteTokens += a.Usage.CacheWriteTokens
	if a.Usage.InputTokens+a.Usage.OutputTokens > 0 {
		label := a.Target.Label()
		prices := x.Engine.prices
		if prices == nil {
			prices = llm.NewPrices(nil)
		}
		if p, ok := prices.Of(label); ok {
			cost := p.Cost(a.Usage)
			e.CostUSD = &cost
			u.CostUSD += cost
		} else {
			e.Unpriced = []string{label}
			u.AddUnpriced(label)
		}
	}
	if x.Engine.captureContent {
		e.Prompt, e.Answer = x.Mask(llm.InputMessages(a.Request)), x.Mask(llm.OutputMessages(a.Response))
	}
}
