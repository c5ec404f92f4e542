package flow

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// runReliably runs a transition's or an onEnter's executor, then, while
// the one before failed past its retries, each executor of its
// reliability.fallback in order, as mcp-flowgate's
// execute_with_reliability does: every candidate under the same timeout
// and retry, each move announced by a fallback.selected event naming the
// candidate (1 for the first) and what failed before it. It returns the
// last result and the step that produced it: the one that answered, or
// the last that failed, whose failure is the call's.
//
// One call is one call whichever candidate answers: whatever identifies
// it to a downstream service (an idempotency key) is the primary's,
// e.Primary() on each candidate.
func (f *flow) runReliably(ctx context.Context, e *chain.Step) (*record.StepResult, bool, *chain.Step) {
	sr, ok := f.runExecutor(ctx, e)
	for i, fb := range e.Fallbacks {
		if ok || f.status == record.Paused || ctx.Err() != nil {
			break
		}
		f.Emit(event.Event{Type: event.FallbackSelected, Step: e.ID, Kind: string(fb.Kind), Candidate: i + 1,
			Error: sr.Error, Detail: fb.Who()})
		sr, ok = f.runExecutor(ctx, fb)
		sr.Fallback = i + 1
		f.steps[len(f.steps)-1].Fallback = i + 1
		e = fb
	}
	return sr, ok, e
}
