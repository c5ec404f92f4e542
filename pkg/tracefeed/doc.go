// Package tracefeed is chainrun's side of trace export: it decides
// whether a run is exported (--otel, config otel:, the OTEL_* variables),
// starts the companion program chainrun-otel when it is, and feeds it the
// run's events as JSON lines. chainrun-otel (pkg/telemetry, the
// OpenTelemetry SDK) makes the spans and sends them.
//
// The SDK lives in the companion so that chainrun itself links none of
// it: a run that exports nothing initialises nothing of OpenTelemetry
// (its packages alone cost 0.4 ms and 258 allocations at every start) and
// the binary stays 3 MB smaller. It may import, of this module: event,
// tracectx.
package tracefeed
