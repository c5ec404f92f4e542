//go:build !otlpgrpc

package telemetry

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
)

// grpcBuilt says this build can export over gRPC: the default build
// cannot (gRPC adds about 5 MB to the binary); -tags otlpgrpc builds it in.
const grpcBuilt = false

func newGRPCExporter(context.Context, Settings, func(string) string) (*otlptrace.Exporter, error) {
	return nil, errors.New("built without OTLP over gRPC (-tags otlpgrpc)")
}
