package telemetry

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/telemetry/otlptest"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// exportOne sends a run of one step through a real exporter to endpoint.
func exportOne(t *testing.T, getenv func(string) string, s Settings, warn io.Writer) {
	t.Helper()
	x, err := Start(context.Background(), s, getenv, "v1.2.3", warn)
	if err != nil {
		t.Fatal(err)
	}
	r := x.NewRun(tracectx.Context{}, tracectx.Context{}, nil)
	r.Emit(event.Event{Type: event.RunStarted, RunID: "r", Chain: "c"})
	r.Emit(event.Event{Type: event.StepAttempt, Step: "a", Attempt: 1})
	r.Emit(event.Event{Type: event.StepFinished, Step: "a", Status: event.OK})
	r.Emit(event.Event{Type: event.RunFinished, Status: event.OK})
	r.End(0)
	x.Close(0)
}

func TestExportOverOTLPHTTP(t *testing.T) {
	rc := otlptest.Start()
	defer rc.Close()
	srv := rc.Server
	rc.Fail.Store(1) // the first try is refused, the retry lands
	// the resource's variables are read from the process (the SDK's
	// resource.WithFromEnv)
	t.Setenv("OTEL_SERVICE_NAME", "ci-deploys")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=staging")
	var warn bytes.Buffer
	exportOne(t, envOf(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT":    srv.URL,
		"OTEL_EXPORTER_OTLP_HEADERS":     "x-api-key=s%20ecret, tenant = a=b",
		"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
	}), Settings{Protocol: HTTPProtobuf}, &warn)
	if warn.Len() != 0 {
		t.Errorf("a successful export says nothing, said %q", warn.String())
	}
	var names []string
	for _, s := range rc.Spans() {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "step a,run c" {
		t.Fatalf("spans received: %q", got)
	}
	h := rc.Headers()[0]
	if h.Get("X-Api-Key") != "s ecret" || h.Get("Tenant") != "a=b" || h.Get("Content-Encoding") != "gzip" {
		t.Errorf("headers %v", h)
	}
	res := rc.Spans()[0].Resource
	if res["service.name"] != "ci-deploys" || res["deployment.environment"] != "staging" || res["service.version"] != "v1.2.3" {
		t.Errorf("resource %v", res)
	}
}

func TestAnEndpointGivenAsABaseGetsTheTracesPath(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:4318":               "http://localhost:4318/v1/traces",
		"http://localhost:4318/":              "http://localhost:4318/v1/traces",
		"https://cloud.example/api/otel":      "https://cloud.example/api/otel/v1/traces",
		"https://cloud.example/api/otel/?k=v": "https://cloud.example/api/otel/v1/traces?k=v",
	} {
		if got := tracesURL(in); got != want {
			t.Errorf("tracesURL(%s) = %s, want %s", in, got, want)
		}
	}
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is taken as written
	c, err := newHTTPClient(Settings{}, envOf(map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://h:1/custom", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://other:2"}))
	if err != nil || c.url != "http://h:1/custom" {
		t.Errorf("traces endpoint: %v %v", c, err)
	}
	c, err = newHTTPClient(Settings{}, envOf(nil))
	if err != nil || c.url != "http://localhost:4318/v1/traces" || c.timeout != exportTimeout {
		t.Errorf("default: %+v %v", c, err)
	}
}

func TestBadExporterVariablesAreNamed(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"OTEL_EXPORTER_OTLP_HEADERS":     {"OTEL_EXPORTER_OTLP_HEADERS": "novalue"},
		"OTEL_EXPORTER_OTLP_TIMEOUT":     {"OTEL_EXPORTER_OTLP_TIMEOUT": "5s"},
		"OTEL_EXPORTER_OTLP_COMPRESSION": {"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "zstd"},
		"OTEL_EXPORTER_OTLP_CERTIFICATE": {"OTEL_EXPORTER_OTLP_CERTIFICATE": "/nonexistent/ca.pem"},
		"ftp://":                         {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "ftp://h/x"},
	} {
		_, err := newHTTPClient(Settings{}, envOf(env))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: want an error naming %s, got %v", env, name, err)
		}
	}
}

func TestADeadEndpointCostsABoundedFlushSaidOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	dead := srv.URL
	srv.Close() // nothing listens there now
	var warn bytes.Buffer
	start := time.Now()
	exportOne(t, envOf(nil), Settings{Endpoint: dead, Protocol: HTTPProtobuf}, &warn)
	if took := time.Since(start); took > FlushTimeout+time.Second {
		t.Errorf("a dead endpoint held the exit for %v", took)
	}
	if strings.Count(warn.String(), "\n") != 1 || !strings.Contains(warn.String(), "traces were not exported to "+dead) {
		t.Errorf("want one line naming the endpoint, got %q", warn.String())
	}
}

func TestARefusedExportIsNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, "no such tenant", http.StatusUnauthorized)
	}))
	defer srv.Close()
	var warn bytes.Buffer
	exportOne(t, envOf(nil), Settings{Endpoint: srv.URL, Protocol: HTTPProtobuf}, &warn)
	if calls.Load() != 1 || !strings.Contains(warn.String(), "401") || !strings.Contains(warn.String(), "no such tenant") {
		t.Errorf("calls %d, said %q", calls.Load(), warn.String())
	}
}
