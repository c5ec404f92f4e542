package telemetry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/go-logr/logr/funcr"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// FlushTimeout bounds what exporting costs a run at its exit: the spans
// still queued are sent within it, or given up on.
const FlushTimeout = 5 * time.Second

// Exporter sends the spans of this process's runs to one OTLP endpoint.
// A process makes at most one (a run, a resume, or chainrun mcp serving
// many runs) and closes it before it exits.
type Exporter struct {
	tp       *sdktrace.TracerProvider
	tracer   trace.Tracer
	settings Settings
	warn     io.Writer

	mu     sync.Mutex
	failed error
	runs   []*Run
}

// Start sets up export as the settings say. Nothing is sent until a run's
// spans end; a dead endpoint is found then and said once, by Close.
// version is chainrun's, for the resource (service.version). warn is
// where the one line about a failed export goes (stderr).
func Start(ctx context.Context, s Settings, getenv func(string) string, version string, warn io.Writer) (*Exporter, error) {
	exp, err := newExporter(ctx, s, getenv)
	if err != nil {
		return nil, err
	}
	return start(ctx, exp, s, version, warn)
}

// start sets up export to exp (a test's in-memory exporter, or OTLP).
func start(ctx context.Context, exp sdktrace.SpanExporter, s Settings, version string, warn io.Writer) (*Exporter, error) {
	// the service's name and version, then what OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES say over them
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "chainrun"), attribute.String("service.version", version)),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv())
	if err != nil && res == nil {
		return nil, err
	}
	x := &Exporter{settings: s, warn: warn}
	// the SDK reports export failures to the global handler and logger:
	// keep the first for one line at Close instead of a line per batch
	otel.SetErrorHandler(otel.ErrorHandlerFunc(x.record))
	otel.SetLogger(funcr.New(func(_, args string) { x.record(errors.New(args)) }, funcr.Options{}))
	x.tp = sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(res),
		sdktrace.WithIDGenerator(presetIDs{}))
	x.tracer = x.tp.Tracer("github.com/chainrun/chainrun", trace.WithInstrumentationVersion(version))
	return x, nil
}

// forget drops an ended run from those Close ends.
func (x *Exporter) forget(r *Run) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.runs = slices.DeleteFunc(x.runs, func(o *Run) bool { return o == r })
}

func (x *Exporter) record(err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.failed == nil {
		x.failed = err
	}
}

// Close ends the runs still open with the command's exit code, sends
// what is left within FlushTimeout and says on warn, once, when spans
// could not be exported. It never fails the command; a nil Exporter
// (export off) does nothing.
func (x *Exporter) Close(exitCode int) {
	if x == nil {
		return
	}
	x.mu.Lock()
	runs := x.runs
	x.mu.Unlock()
	for _, r := range runs {
		r.End(exitCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), FlushTimeout)
	defer cancel()
	if err := x.tp.Shutdown(ctx); err != nil {
		x.record(err)
	}
	x.mu.Lock()
	err := x.failed
	x.mu.Unlock()
	if err != nil && x.warn != nil {
		where := x.settings.Endpoint
		if where == "" {
			where = "the OTEL_EXPORTER_OTLP endpoint"
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s", FlushTimeout)
		}
		fmt.Fprintf(x.warn, "chainrun: traces were not exported to %s: %v\n", where, err)
	}
}
