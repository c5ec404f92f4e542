package telemetry

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/telemetry/otlptest"
	"github.com/chainrun/chainrun/pkg/tracectx"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// feed is the lines chainrun would send.
func feed(t *testing.T, lines ...any) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	return &b
}

// TestServeMakesTheFedRunsSpans: chainrun-otel reads the feed, gives each
// run the trace and span ids chainrun chose, ends a process's run with
// its exit code and a served run with itself, and sends both.
func TestServeMakesTheFedRunsSpans(t *testing.T) {
	rc := otlptest.Start()
	defer rc.Close()
	own, _ := tracectx.Parse("00-0af7651916cd43dd8448eb211c80319c-"+tracectx.RunSpan(mustTrace(t, "0af7651916cd43dd8448eb211c80319c")).String()+"-01", "")
	parent := "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	served := tracectx.NewTrace()
	served.Span = tracectx.RunSpan(served.Trace)
	exit := 3
	in := feed(t,
		tracefeed.Hello{Settings: tracefeed.Settings{Endpoint: rc.URL, Protocol: tracefeed.HTTPProtobuf}, Version: "v1"},
		tracefeed.Line{Run: 1, Open: &tracefeed.Opening{Trace: own.Traceparent(), Parent: parent}},
		tracefeed.Line{Run: 2, Open: &tracefeed.Opening{Trace: served.Traceparent(), Served: true}},
		tracefeed.Line{Run: 1, Event: &event.Event{Type: event.RunStarted, Chain: "a"}},
		tracefeed.Line{Run: 2, Event: &event.Event{Type: event.RunStarted, Chain: "b"}},
		tracefeed.Line{Run: 2, Event: &event.Event{Type: event.RunFinished, Status: event.OK}},
		tracefeed.Line{Run: 1, Event: &event.Event{Type: event.StepAttempt, Step: "s", Attempt: 1}},
		"not a line",
		tracefeed.Line{Run: 9, Event: &event.Event{Type: event.RunStarted, Chain: "never opened"}},
		tracefeed.Line{Run: 1, End: &exit},
	)
	var warn bytes.Buffer
	if code := Serve(in, envOf(nil), &warn); code != 0 || warn.Len() != 0 {
		t.Fatalf("exit %d, said %q", code, warn.String())
	}
	a, b := rc.Named("run a"), rc.Named("run b")
	if len(a) != 1 || len(b) != 1 || len(rc.Named("run never opened")) != 0 {
		t.Fatalf("spans %d", len(rc.Spans()))
	}
	if a[0].TraceID != own.Trace.String() || a[0].SpanID != own.Span.String() || a[0].ParentID != "b7ad6b7169203331" || a[0].Attr("chainrun.exit_code") != int64(3) {
		t.Errorf("run a: %+v", a[0])
	}
	if b[0].TraceID != served.Trace.String() || b[0].SpanID != served.Span.String() || b[0].Attr("chainrun.exit_code") != nil {
		t.Errorf("run b: %+v", b[0])
	}
	step := rc.Named("step s")
	if len(step) != 1 || step[0].ParentID != own.Span.String() || step[0].SpanID != tracectx.AttemptSpan(own.Trace, "s", 1).String() {
		t.Errorf("step s: %+v", step)
	}
}

func mustTrace(t *testing.T, hex string) tracectx.TraceID {
	c, err := tracectx.Parse("00-"+hex+"-00f067aa0ba902b7-01", "")
	if err != nil {
		t.Fatal(err)
	}
	return c.Trace
}

func TestServeRefusesAFeedItCannotRead(t *testing.T) {
	var warn bytes.Buffer
	if code := Serve(strings.NewReader(""), envOf(nil), &warn); code != 2 || !strings.Contains(warn.String(), "chainrun starts this program itself") {
		t.Errorf("no feed: %d %q", code, warn.String())
	}
	warn.Reset()
	if code := Serve(strings.NewReader("{bad\n"), envOf(nil), &warn); code != 2 || !strings.Contains(warn.String(), "first line") {
		t.Errorf("a bad hello: %d %q", code, warn.String())
	}
	// an exporter that cannot be made is said once; the feed is read to
	// its end all the same, so chainrun never waits on it
	warn.Reset()
	in := feed(t, tracefeed.Hello{Settings: tracefeed.Settings{Protocol: tracefeed.HTTPProtobuf}}, tracefeed.Line{Run: 1})
	code := Serve(in, envOf(map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "soon"}), &warn)
	if code != 0 || strings.Count(warn.String(), "\n") != 1 || !strings.Contains(warn.String(), "OTEL_EXPORTER_OTLP_TIMEOUT") || in.Len() != 0 {
		t.Errorf("an exporter that cannot be made: %d %q (left %d)", code, warn.String(), in.Len())
	}
}
