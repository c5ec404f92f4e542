package telemetry

import (
	"context"
	crand "crypto/rand"

	"go.opentelemetry.io/otel/trace"

	"github.com/chainrun/chainrun/pkg/tracectx"
)

// presetIDs gives a span the id put in its context by withSpanID, so that
// the spans of a run and of its steps' attempts carry the ids tracectx
// derived for them (the ids commands and requests were handed); any other
// span gets a random id, as the SDK's own generator gives.
type presetIDs struct{}

type spanIDKey struct{}

type traceIDKey struct{}

// withIDs asks the next span started with ctx to take span id s and, when
// it starts a trace (a run that continues none), trace id t.
func withIDs(ctx context.Context, t tracectx.TraceID, s tracectx.SpanID) context.Context {
	return context.WithValue(context.WithValue(ctx, spanIDKey{}, trace.SpanID(s)), traceIDKey{}, trace.TraceID(t))
}

// consumed is the context a span started with a preset id hands to its
// children: the preset is spent, so each child gets an id of its own.
func consumed(ctx context.Context) context.Context {
	return context.WithValue(ctx, spanIDKey{}, trace.SpanID{})
}

// NewIDs gives the preset trace (the run's own), else a random one.
func (g presetIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	t, ok := ctx.Value(traceIDKey{}).(trace.TraceID)
	for !ok || !t.IsValid() {
		_, _ = crand.Read(t[:])
		ok = true
	}
	return t, g.NewSpanID(ctx, t)
}

// NewSpanID gives the preset id, else a random one.
func (g presetIDs) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	if s, ok := ctx.Value(spanIDKey{}).(trace.SpanID); ok && s.IsValid() {
		return s
	}
	var s trace.SpanID
	for !s.IsValid() {
		_, _ = crand.Read(s[:])
	}
	return s
}
