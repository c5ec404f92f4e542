package cmd

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/telemetry/otlptest"
	"github.com/chainrun/chainrun/pkg/tracectx"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// companionOnce builds chainrun-otel once for the tests that export.
var companionOnce = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "chainrun-otel-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "chainrun-otel")
	out, err := exec.CommandContext(context.Background(), "go", "build", "-o", bin, "github.com/chainrun/chainrun/cmd/chainrun-otel").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build chainrun-otel: %v\n%s", err, out)
	}
	return bin, nil
})

// withCompanion points chainrun at a built chainrun-otel.
func withCompanion(t *testing.T) {
	t.Helper()
	bin, err := companionOnce()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHAINRUN_OTEL_BIN", bin)
}

// TestARunIsExportedAsATrace runs a chain with OTEL_EXPORTER_OTLP_ENDPOINT
// set and a TRACEPARENT from "CI": the receiver gets the run as a child of
// that trace, a span per step attempt (a retried step has two), and the
// command and the request of a step were handed their attempt's span.
func TestARunIsExportedAsATrace(t *testing.T) {
	withCompanion(t)
	rc := otlptest.Start()
	defer rc.Close()
	var mu sync.Mutex
	var sent []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Header.Get("traceparent"))
		mu.Unlock()
		w.Write([]byte("ok"))
	}))
	defer hook.Close()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rc.URL)
	const ci = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	t.Setenv("TRACEPARENT", ci)
	chainFile := filepath.Join(dir, "traced.yaml")
	os.WriteFile(chainFile, []byte(`name: traced
steps:
  - id: build
    type: cli
    command: sh
    args: ["-c", "echo $TRACEPARENT >> tp.txt; test -e second || { touch second; exit 3; }"]
    retry: {max: 2, delay_ms: 1}
  - id: notify
    type: http
    url: `+hook.URL+`
    depends_on: [build]
`), 0o644)
	code, stdout, stderr := chainrunIn(t, "run", chainFile, "-q", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	parent, _ := tracectx.Parse(ci, "")
	runs := rc.Named("run traced")
	if len(runs) != 1 {
		t.Fatalf("want one run span, got %d (%d spans)", len(runs), len(rc.Spans()))
	}
	root := runs[0]
	if root.TraceID != parent.Trace.String() || root.ParentID != parent.Span.String() {
		t.Errorf("the run is not a child of TRACEPARENT: trace %s parent %s", root.TraceID, root.ParentID)
	}
	if root.Attr("chainrun.exit_code") != int64(0) || root.Attr("chainrun.run.status") != "succeeded" || root.Resource["service.name"] != "chainrun" {
		t.Errorf("run span: %v %v", root.Attributes, root.Resource)
	}
	builds := rc.Named("step build")
	if len(builds) != 2 {
		t.Fatalf("want a span per attempt of build, got %d", len(builds))
	}
	printed, _ := os.ReadFile(filepath.Join(dir, "tp.txt"))
	lines := strings.Fields(string(printed))
	if len(lines) != 2 {
		t.Fatalf("the command printed %q", printed)
	}
	for i, b := range builds {
		if b.ParentID != root.SpanID || b.TraceID != root.TraceID {
			t.Errorf("attempt %d is not the run's child", i+1)
		}
		if want := "00-" + root.TraceID + "-" + b.SpanID + "-01"; lines[i] != want {
			t.Errorf("attempt %d's command saw TRACEPARENT %s, want its span's %s", i+1, lines[i], want)
		}
	}
	if builds[0].Status.GetMessage() == "" || builds[0].Attr("chainrun.step.retry") != int64(0) || builds[1].Attr("chainrun.step.retry") != int64(1) {
		t.Errorf("the failed attempt and the retry: %v / %v", builds[0].Status, builds[1].Attributes)
	}
	notify := rc.Named("step notify")
	if len(notify) != 1 || notify[0].Kind.String() != "SPAN_KIND_CLIENT" {
		t.Fatalf("the http step is a client span: %v", notify)
	}
	if len(sent) != 1 || sent[0] != "00-"+root.TraceID+"-"+notify[0].SpanID+"-01" {
		t.Errorf("the request's traceparent %v, want the step's span %s", sent, notify[0].SpanID)
	}
}

// TestNoEndpointNoTrace: without an endpoint a command is handed
// chainrun's own TRACEPARENT unchanged, and nothing is exported.
func TestNoEndpointNoTrace(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	const ci = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	t.Setenv("TRACEPARENT", ci)
	chainFile := filepath.Join(dir, "plain.yaml")
	os.WriteFile(chainFile, []byte("name: plain\nsteps:\n  - id: a\n    type: cli\n    command: sh\n    args: [\"-c\", \"echo $TRACEPARENT > tp.txt\"]\n"), 0o644)
	code, stdout, stderr := chainrunIn(t, "run", chainFile, "-q", "-o", "json")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if printed, _ := os.ReadFile(filepath.Join(dir, "tp.txt")); strings.TrimSpace(string(printed)) != ci {
		t.Errorf("the command saw TRACEPARENT %q, want chainrun's own", printed)
	}
}

// TestBadOtelSettingsAreRefused: a flag or config value that cannot be
// used stops the command before anything runs, naming it (exit 2).
func TestBadOtelSettingsAreRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	os.WriteFile(filepath.Join(dir, "c.yaml"), []byte("name: c\nsteps:\n  - id: a\n    type: cli\n    command: \"true\"\n"), 0o644)
	code, _, stderr := chainrunIn(t, "run", "c.yaml", "--otel=localhost:4318")
	if code != 2 || !strings.Contains(stderr, "--otel localhost:4318") {
		t.Errorf("a bad --otel: exit %d %s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "chainrun.yaml"), []byte("otel:\n  protocol: thrift\n"), 0o644)
	code, _, stderr = chainrunIn(t, "run", "c.yaml")
	if code != 2 || !strings.Contains(stderr, "chainrun.yaml") || !strings.Contains(stderr, "otel.protocol") {
		t.Errorf("a bad config otel: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); err == nil {
		t.Error("a refused command saved a run")
	}
}

// TestNoCompanionNoTrace: export asked for without chainrun-otel at hand
// is said once, and the run goes on untraced, its exit code its own.
func TestNoCompanionNoTrace(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("CHAINRUN_OTEL_BIN", "")
	t.Setenv("PATH", "/usr/bin:/bin")
	t.Setenv("TRACEPARENT", "")
	os.WriteFile("c.yaml", []byte("name: c\nsteps:\n  - id: a\n    type: cli\n    command: sh\n    args: [\"-c\", \"echo [$TRACEPARENT] > tp.txt\"]\n"), 0o644)
	code, _, stderr := chainrunIn(t, "run", "c.yaml", "-q", "--otel=http://127.0.0.1:9")
	if code != 0 || strings.Count(stderr, "chainrun-otel was found neither") != 1 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if printed, _ := os.ReadFile("tp.txt"); strings.TrimSpace(string(printed)) != "[]" {
		t.Errorf("an untraced run handed its command %s", printed)
	}
}

// TestADeadEndpointIsSaidOnce: a run exported to an endpoint nobody
// listens on succeeds as it would, its exit held at most the bounded
// flush, the failure said in one line.
func TestADeadEndpointIsSaidOnce(t *testing.T) {
	withCompanion(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	os.WriteFile("c.yaml", []byte("name: c\nsteps:\n  - {id: a, type: cli, command: \"true\"}\n"), 0o644)
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	start := time.Now()
	code, _, stderr := chainrunIn(t, "run", "c.yaml", "-q", "--otel="+url)
	if took := time.Since(start); took > tracefeed.FlushTimeout+3*time.Second {
		t.Errorf("a dead endpoint held the run's exit %v", took)
	}
	if code != 0 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "traces were not exported to "+url) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
