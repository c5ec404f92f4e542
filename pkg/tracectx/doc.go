// Package tracectx is a run's W3C trace context (traceparent and
// tracestate) and the span ids chainrun derives from it.
//
// The engine must hand a command its step's TRACEPARENT and send an HTTP
// request's traceparent header while the step runs, but it must not
// depend on the OpenTelemetry SDK, and the spans are made afterwards from
// the event stream (pkg/telemetry). Both sides agree without talking: a
// span's id is derived from the trace id and what the span is (a run, a
// step's attempt), so the id a command was given is the id its span is
// exported with. It imports nothing of this module.
package tracectx
