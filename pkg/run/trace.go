package run

import (
	"context"

	"github.com/chainrun/chainrun/pkg/tracectx"
)

// attemptKey carries the step attempt a context runs, so that a command
// or request it starts is handed that attempt's span.
type attemptKey struct{}

type attemptOf struct {
	step string
	n    int
}

// withAttempt marks ctx as running attempt n of step when the run is
// traced (Request.Trace).
func (x *Execution) withAttempt(ctx context.Context, step string, n int) context.Context {
	if !x.Req.Trace.IsValid() {
		return ctx
	}
	return context.WithValue(ctx, attemptKey{}, attemptOf{step, n})
}

// Trace is the span what ctx runs belongs to, the id pkg/telemetry gives
// it: the step attempt it runs, else the run; ok false when the run is not
// traced, and a command then sees the TRACEPARENT chainrun was given.
func (a *Attempt) Trace(ctx context.Context) (tc tracectx.Context, ok bool) {
	tc = a.x.Req.Trace
	if !tc.IsValid() {
		return tc, false
	}
	if at, ok := ctx.Value(attemptKey{}).(attemptOf); ok {
		tc = tc.Child(tracectx.AttemptSpan(tc.Trace, at.step, at.n))
	}
	return tc, true
}
