package telemetry

import (
	"context"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
)

// newGRPCExporter is the SDK's OTLP/gRPC exporter (otel.protocol: grpc,
// OTEL_EXPORTER_OTLP_PROTOCOL=grpc). chainrun-otel links gRPC, chainrun does
// not.
func newGRPCExporter(ctx context.Context, s Settings, getenv func(string) string) (*otlptrace.Exporter, error) {
	opts := []otlptracegrpc.Option{otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{
		Enabled: true, InitialInterval: 250 * time.Millisecond, MaxInterval: time.Second, MaxElapsedTime: retryTotal,
	})}
	if s.Endpoint != "" {
		u, err := url.Parse(s.Endpoint)
		if err == nil {
			opts = append(opts, otlptracegrpc.WithEndpoint(u.Host))
			if u.Scheme == "http" {
				opts = append(opts, otlptracegrpc.WithInsecure())
			}
		}
	}
	if !timeoutSet(getenv) {
		opts = append(opts, otlptracegrpc.WithTimeout(exportTimeout))
	}
	return otlptracegrpc.New(ctx, opts...)
}
