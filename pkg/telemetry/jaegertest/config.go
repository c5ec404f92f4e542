package jaegertest

import "fmt"

// maxTraces is how many traces the in-memory store keeps, and so the
// largest search Traces may ask for (Jaeger refuses a search deeper than
// its store).
const maxTraces = 10000

// config is Jaeger v2's configuration for a test (the shape of
// cmd/jaeger/config.yaml in Jaeger's source, cut to what a test needs):
// an OTLP receiver over HTTP and gRPC, spans stored as they arrive (no
// batch processor, so a span is queryable once the receiver answered),
// the in-memory store, and the query API with its HTTP and gRPC servers
// on the given ports. Jaeger's own telemetry is off: no metrics server on
// a fixed port (8888) that two tests would share, and no traces of its
// queries (enable_tracing), which it would export to localhost:4317.
func config(otlpHTTP, otlpGRPC, queryHTTP, queryGRPC string) string {
	return fmt.Sprintf(`service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info

extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: %d
  jaeger_query:
    storage:
      traces: memstore
    enable_tracing: false
    http:
      endpoint: %s
    grpc:
      endpoint: %s

receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
      grpc:
        endpoint: %s

exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`, maxTraces, queryHTTP, queryGRPC, otlpHTTP, otlpGRPC)
}
