//go:build otlpgrpc

package telemetry

import (
	"context"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
)

// grpcBuilt says this build can export over gRPC (-tags otlpgrpc: gRPC
// adds about 4 MB to the binary, so the default build leaves it out).
const grpcBuilt = true

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
