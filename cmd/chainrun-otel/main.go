// Command chainrun-otel exports chainrun's runs as OpenTelemetry traces.
// chainrun starts it when a run is to be exported (--otel, config otel:,
// OTEL_EXPORTER_OTLP_ENDPOINT) and feeds it the run's events on stdin;
// it makes the spans with the OpenTelemetry SDK and sends them over OTLP
// (docs/observability.md). It is a program of its own so that chainrun
// links nothing of the SDK: a run that exports nothing pays nothing for it.
package main

import (
	"os"

	"github.com/chainrun/chainrun/pkg/telemetry"
)

func main() { os.Exit(telemetry.Serve(os.Stdin, os.Getenv, os.Stderr)) }
