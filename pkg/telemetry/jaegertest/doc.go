// Package jaegertest runs a real trace backend for tests: the Jaeger v2
// all-in-one binary (an OpenTelemetry Collector distribution nobody here
// wrote), on loopback, with in-memory storage, and reads back what it
// received through Jaeger's query API as plain Go values.
//
// It owns the backend's life in a test (a free port each for OTLP over
// HTTP, OTLP over gRPC and the query API; a config file in the test's
// temporary directory; readiness, bounded; its log kept in a file and
// printed when the test fails; the process stopped at cleanup) and the
// decoding of the query API's OTLP/JSON answer into Trace and Span, with
// the helpers assertions need (Find, Children, Roots, Tree).
//
// It is for tests only: the binary is named by CHAINRUN_JAEGER, which
// .ci/otel/install.sh builds once from the Go module proxy and .ci/run
// sets, and Start skips the test when it is unset. It uses the standard
// library alone, so the telemetry code under test and its check share no
// OTLP code: what a test reads here went over the wire to a program that
// is not chainrun's.
//
// It imports nothing of this module.
package jaegertest
