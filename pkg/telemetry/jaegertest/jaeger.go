package jaegertest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// EnvBinary names the environment variable that holds the path of the
// Jaeger v2 binary. .ci/run sets it (from .ci/otel/install.sh), so CI never
// skips the tests that need a backend; locally they skip until it is set.
const EnvBinary = "CHAINRUN_JAEGER"

// readyWithin bounds how long Start waits for a started Jaeger to serve
// (it takes milliseconds when the machine is idle; a busy shared machine
// is given far more).
const readyWithin = 60 * time.Second

// readyLine is what the OpenTelemetry Collector (and so Jaeger v2) logs
// once every extension, receiver and exporter has started.
const readyLine = "Everything is ready."

// stopWithin bounds how long cleanup waits for Jaeger to end after
// SIGTERM before it is killed.
const stopWithin = 5 * time.Second

// Jaeger is one running Jaeger v2 all-in-one process, private to a test:
// its ports are free loopback ports and its storage is memory, so what it
// holds is what this test sent.
type Jaeger struct {
	otlpHTTP, otlpGRPC, queryHTTP string // host:port each
	logPath                       string
	client                        *http.Client
}

// OTLPHTTPEndpoint is the base URL of the OTLP/HTTP receiver, as
// OTEL_EXPORTER_OTLP_ENDPOINT wants it (http://127.0.0.1:PORT; an exporter
// appends /v1/traces).
func (j *Jaeger) OTLPHTTPEndpoint() string { return "http://" + j.otlpHTTP }

// OTLPGRPCEndpoint is the address of the OTLP/gRPC receiver
// (127.0.0.1:PORT, no scheme; it serves without TLS).
func (j *Jaeger) OTLPGRPCEndpoint() string { return j.otlpGRPC }

// HTTPEnv is the environment that makes a program with the OpenTelemetry
// SDK export its traces to this Jaeger over OTLP/HTTP (protobuf), as the
// SDK's environment spec names it; a test appends it to a command's Env.
func (j *Jaeger) HTTPEnv() []string {
	return []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + j.OTLPHTTPEndpoint(), "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"}
}

// GRPCEnv is HTTPEnv for OTLP over gRPC: the http scheme says the
// connection is not encrypted.
func (j *Jaeger) GRPCEnv() []string {
	return []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + j.OTLPGRPCEndpoint(), "OTEL_EXPORTER_OTLP_PROTOCOL=grpc"}
}

// QueryURL is the base URL of Jaeger's query API (its /api/v3 paths), for
// a test that wants to look further than Traces and Trace do.
func (j *Jaeger) QueryURL() string { return "http://" + j.queryHTTP }

// LogPath is the file Jaeger's output goes to; Start prints it when the
// test fails.
func (j *Jaeger) LogPath() string { return j.logPath }

// Start runs Jaeger for the test t and returns it once its receivers and
// query API serve. It skips t when CHAINRUN_JAEGER is unset, fails t when
// Jaeger does not start, and stops Jaeger at t's cleanup.
func Start(t testing.TB) *Jaeger {
	t.Helper()
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		t.Skipf("%s is not set (the Jaeger v2 binary: `export %s=$(bash .ci/otel/install.sh)` builds it once; .ci/run sets it)", EnvBinary, EnvBinary)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s: %v", EnvBinary, err)
	}
	dir := t.TempDir()
	var lastErr error
	// A free port can be taken by another process between the moment it is
	// chosen and the moment Jaeger binds it: a start that fails that way is
	// tried again on other ports.
	for attempt := 1; attempt <= 3; attempt++ {
		ports, err := freePorts(4)
		if err != nil {
			t.Fatal(err)
		}
		j, err := start(t, bin, filepath.Join(dir, fmt.Sprintf("attempt-%d", attempt)), ports)
		if err == nil {
			return j
		}
		lastErr = err
		if !errors.Is(err, errPortTaken) {
			break
		}
	}
	t.Fatalf("jaeger did not start: %v", lastErr)
	return nil
}

// errPortTaken says a start failed because a port was no longer free.
var errPortTaken = errors.New("a port was taken before Jaeger bound it")

// start runs one attempt of Start in dir, on ports: OTLP over HTTP, OTLP
// over gRPC, the query API's HTTP and its gRPC server.
func start(t testing.TB, bin, dir string, ports []string) (*Jaeger, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	j := &Jaeger{
		otlpHTTP:  ports[0],
		otlpGRPC:  ports[1],
		queryHTTP: ports[2],
		logPath:   filepath.Join(dir, "jaeger.log"),
		client:    &http.Client{Timeout: 10 * time.Second},
	}
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(config(j.otlpHTTP, j.otlpGRPC, j.queryHTTP, ports[3])), 0o644); err != nil {
		return nil, err
	}
	logFile, err := os.Create(j.logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--config", "file:"+cfg)
	cmd.Dir = dir
	cmd.Env = backendEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	stop := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(stopWithin):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}
	if err := j.waitReady(exited); err != nil {
		stop()
		log, _ := os.ReadFile(j.logPath)
		if strings.Contains(string(log), "address already in use") {
			return nil, fmt.Errorf("%w: %v", errPortTaken, err)
		}
		return nil, fmt.Errorf("%v; its log (%s):\n%s", err, j.logPath, log)
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			log, _ := os.ReadFile(j.logPath)
			t.Logf("jaeger's log (%s):\n%s", j.logPath, log)
		}
	})
	return j, nil
}

// waitReady polls until the query API answers and both receivers accept
// connections, or Jaeger exits, or readyWithin passes. Jaeger starts its
// extensions (the query API) before its receivers, but a test must not
// send before both serve.
func (j *Jaeger) waitReady(exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), readyWithin)
	defer cancel()
	for {
		if j.ready(ctx) {
			return nil
		}
		select {
		case <-exited:
			return errors.New("jaeger exited before it served")
		case <-ctx.Done():
			return fmt.Errorf("jaeger did not serve within %s", readyWithin)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ready says whether Jaeger said it started every component, the query
// API answers and both receivers listen. The log line comes first: a
// receiver's port held by another process would accept connections while
// this Jaeger fails to bind it and exits.
func (j *Jaeger) ready(ctx context.Context) bool {
	if log, err := os.ReadFile(j.logPath); err != nil || !strings.Contains(string(log), readyLine) {
		return false
	}
	for _, addr := range []string{j.otlpHTTP, j.otlpGRPC} {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false
		}
		c.Close()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.QueryURL()+"/api/v3/services", nil)
	if err != nil {
		return false
	}
	resp, err := j.client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// freePorts returns n distinct loopback addresses nothing listens on now.
// All n listeners are held until every port is chosen, so no two are the
// same.
func freePorts(n int) ([]string, error) {
	addrs := make([]string, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		addrs = append(addrs, l.Addr().String())
	}
	return addrs, nil
}

// backendEnv is the environment Jaeger runs with: the test's, without the
// OpenTelemetry SDK's variables and a trace context, which are meant for
// the program under test; Jaeger's own SDK would otherwise export its
// spans to the endpoint a test names, which may be this very Jaeger.
func backendEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "OTEL_") || upper == "TRACEPARENT" || upper == "TRACESTATE" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "OTEL_SDK_DISABLED=true", "OTEL_TRACES_EXPORTER=none", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORTER=none")
}
