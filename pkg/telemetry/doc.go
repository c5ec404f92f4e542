// Package telemetry is chainrun-otel, the companion that exports a run as
// an OpenTelemetry trace over OTLP from the feed chainrun sends it
// (pkg/tracefeed):
// a span for the run, one per step attempt, workflow transition and
// decision, one per model request following the GenAI semantic
// conventions, one per agent tool call.
//
// It reads the event stream, as every view of a run does: the engines
// know nothing of it, and what a span says is what the events said. The
// ids the engine handed to commands and requests (TRACEPARENT, the
// traceparent header) are derived by pkg/tracectx, so the spans made here
// from the events carry the same ids.
//
// chainrun links none of it: the SDK's packages are initialised only in
// the companion, which chainrun starts only when a run is exported.
// Besides the OpenTelemetry SDK, it never imports the engine, the chain
// model or cobra. It may import, of this module: event, tracectx,
// tracefeed.
package telemetry
