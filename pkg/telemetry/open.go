package telemetry

import (
	"context"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/tracectx"
)

// Open starts export as the flag, config and environment ask (Resolve),
// or returns nil when nothing asks. err is a flag or config value that
// cannot be used: the command stops (exit 2) before anything runs. A
// problem of the SDK's OTEL_* variables, or an exporter that cannot be
// made, is said once on warn and the command goes on untraced: export
// never fails a run.
func Open(c Choice, getenv func(string) string, version string, warn io.Writer) (*Exporter, error) {
	s, ok, problem, err := Resolve(c, getenv)
	if err != nil {
		return nil, err
	}
	if problem != "" {
		fmt.Fprintf(warn, "chainrun: %s\n", problem)
	}
	if !ok {
		return nil, nil
	}
	x, err := Start(context.Background(), s, getenv, version, warn)
	if err != nil {
		fmt.Fprintf(warn, "chainrun: traces are not exported: %v\n", err)
		return nil, nil
	}
	return x, nil
}

// ParentFromEnv is the trace chainrun was started in: TRACEPARENT and
// TRACESTATE, which CI systems and OpenTelemetry's environment carriers
// set. A malformed one is no parent: the run starts a trace of its own.
func ParentFromEnv(getenv func(string) string) tracectx.Context {
	c, _ := tracectx.Parse(getenv("TRACEPARENT"), getenv("TRACESTATE"))
	return c
}
