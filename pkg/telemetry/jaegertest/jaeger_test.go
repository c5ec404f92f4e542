package jaegertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// A trace of two spans sent as OTLP/JSON to the OTLP/HTTP receiver comes
// back through the query API with every field as it was sent: IDs, parent
// link, kind, times, typed attributes, status, events, links, resource.
func TestSpansComeBackAsSent(t *testing.T) {
	j := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	const (
		traceID  = "5b8efff798038103d269b633813fc60c"
		parentID = "eee19b7ec3c1b174"
		childID  = "4a2f1d0c9b8e7f60"
		linkedT  = "4bf92f3577b34da6a3ce929d0e0e4736"
		linkedS  = "00f067aa0ba902b7"
	)
	start := time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)
	payload := fmt.Sprintf(`{"resourceSpans":[{
	  "resource":{"attributes":[
	    {"key":"service.name","value":{"stringValue":"jaegertest-roundtrip"}},
	    {"key":"service.version","value":{"stringValue":"1.2.3"}}]},
	  "scopeSpans":[{"scope":{"name":"chainrun.test"},"spans":[
	    {"traceId":%[1]q,"spanId":%[2]q,"name":"run lint-chain","kind":2,
	     "startTimeUnixNano":"%[6]d","endTimeUnixNano":"%[7]d",
	     "attributes":[
	       {"key":"chainrun.chain","value":{"stringValue":"lint-chain"}},
	       {"key":"chainrun.exit_code","value":{"intValue":"3"}},
	       {"key":"chainrun.cost_usd","value":{"doubleValue":0.0125}},
	       {"key":"chainrun.resumed","value":{"boolValue":false}},
	       {"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"stop"},{"stringValue":"length"}]}}},
	       {"key":"chainrun.retries","value":{"arrayValue":{"values":[{"intValue":"1"},{"intValue":"2"}]}}},
	       {"key":"chainrun.digest","value":{"bytesValue":"AQID"}},
	       {"key":"chainrun.inputs","value":{"kvlistValue":{"values":[{"key":"path","value":{"stringValue":"a.go"}}]}}}],
	     "events":[{"timeUnixNano":"%[8]d","name":"exception","attributes":[
	       {"key":"exception.message","value":{"stringValue":"exit status 3"}}]}],
	     "status":{"code":2,"message":"step lint failed"}},
	    {"traceId":%[1]q,"spanId":%[3]q,"parentSpanId":%[2]q,"name":"POST","kind":"SPAN_KIND_CLIENT",
	     "startTimeUnixNano":"%[9]d","endTimeUnixNano":"%[10]d",
	     "attributes":[{"key":"http.response.status_code","value":{"intValue":200}}],
	     "links":[{"traceId":%[4]q,"spanId":%[5]q,"attributes":[
	       {"key":"chainrun.link","value":{"stringValue":"resumed from"}}]}],
	     "status":{"code":1}}
	  ]}]}]}`,
		traceID, parentID, childID, linkedT, linkedS,
		start.UnixNano(), start.Add(1500*time.Millisecond).UnixNano(),
		start.Add(time.Second).UnixNano(),
		start.Add(200*time.Millisecond).UnixNano(), start.Add(450*time.Millisecond).UnixNano())
	// sent where an exporter configured by HTTPEnv sends: the endpoint's
	// /v1/traces, as the SDK's environment spec says
	if got := envValue(j.HTTPEnv(), "OTEL_EXPORTER_OTLP_PROTOCOL"); got != "http/protobuf" {
		t.Errorf("HTTPEnv's protocol: %q", got)
	}
	postJSON(t, envValue(j.HTTPEnv(), "OTEL_EXPORTER_OTLP_ENDPOINT")+"/v1/traces", payload)

	resource := map[string]any{"service.name": "jaegertest-roundtrip", "service.version": "1.2.3"}
	parent := Span{
		TraceID: traceID, SpanID: parentID, Name: "run lint-chain", Kind: KindServer,
		Start: start, Duration: 1500 * time.Millisecond,
		Attributes: map[string]any{
			"chainrun.chain":                 "lint-chain",
			"chainrun.exit_code":             int64(3),
			"chainrun.cost_usd":              0.0125,
			"chainrun.resumed":               false,
			"gen_ai.response.finish_reasons": []any{"stop", "length"},
			"chainrun.retries":               []any{int64(1), int64(2)},
			"chainrun.digest":                []byte{1, 2, 3},
			"chainrun.inputs":                map[string]any{"path": "a.go"},
		},
		Status: Status{Code: StatusError, Message: "step lint failed"},
		Events: []Event{{Name: "exception", Time: start.Add(time.Second),
			Attributes: map[string]any{"exception.message": "exit status 3"}}},
		Service: "jaegertest-roundtrip", Resource: resource, Scope: "chainrun.test",
	}
	child := Span{
		TraceID: traceID, SpanID: childID, ParentSpanID: parentID, Name: "POST", Kind: KindClient,
		Start: start.Add(200 * time.Millisecond), Duration: 250 * time.Millisecond,
		Attributes: map[string]any{"http.response.status_code": int64(200)},
		Status:     Status{Code: StatusOK},
		Links: []Link{{TraceID: linkedT, SpanID: linkedS,
			Attributes: map[string]any{"chainrun.link": "resumed from"}}},
		Service: "jaegertest-roundtrip", Resource: resource, Scope: "chainrun.test",
	}

	traces, err := j.WaitForSpans(ctx, "jaegertest-roundtrip", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(traces) != 1 || traces[0].ID != traceID {
		t.Fatalf("traces of the service: want one, %s; got %d: %v", traceID, len(traces), traces)
	}
	byID, err := j.Trace(ctx, strings.ToUpper(traceID))
	if err != nil {
		t.Fatal(err)
	}
	for name, tr := range map[string]Trace{"Traces": traces[0], "Trace": byID} {
		if len(tr.Spans) != 2 {
			t.Fatalf("%s: want 2 spans, got %d:\n%s", name, len(tr.Spans), tr)
		}
		for i, want := range []Span{parent, child} {
			got := tr.Spans[i]
			for _, d := range spanDiff(got, want) {
				t.Errorf("%s: span %d (%s): %s", name, i, want.Name, d)
			}
		}
	}

	tr := byID
	if p := tr.Find("POST"); p == nil || p.SpanID != childID {
		t.Errorf("Find(POST) = %v", p)
	}
	if tr.Find("no such span") != nil || tr.FindAll("no such span") != nil {
		t.Error("Find of an absent name found a span")
	}
	if kids := tr.Children(tr.Spans[0]); len(kids) != 1 || kids[0].SpanID != childID {
		t.Errorf("Children(parent) = %v", kids)
	}
	if kids := tr.Children(tr.Spans[1]); len(kids) != 0 {
		t.Errorf("Children(child) = %v", kids)
	}
	if p := tr.Parent(tr.Spans[1]); p == nil || p.SpanID != parentID {
		t.Errorf("Parent(child) = %v", p)
	}
	if roots := tr.Roots(); len(roots) != 1 || roots[0].SpanID != parentID {
		t.Errorf("Roots() = %v", roots)
	}
	wantTree := "trace " + traceID + "\n  run lint-chain (server, error: step lint failed)\n    POST (client, ok)\n"
	if got := tr.String(); got != wantTree {
		t.Errorf("String():\n%s\nwant:\n%s", got, wantTree)
	}

	if _, err := j.Trace(ctx, "0123456789abcdef0123456789abcdef"); !errors.Is(err, ErrNoTrace) {
		t.Errorf("Trace of an ID nobody sent: got %v, want ErrNoTrace", err)
	}
	if none, err := j.Traces(ctx, "no-such-service"); err != nil || len(none) != 0 {
		t.Errorf("Traces of a service nobody named: got %v, %v; want none", none, err)
	}
}

// postJSON posts an OTLP/JSON body and fails t unless the receiver took it.
func postJSON(t *testing.T, url, body string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || bytes.Contains(answer, []byte("rejected")) {
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, answer)
	}
}

// spanDiff names each field of got that differs from want's.
func spanDiff(got, want Span) []string {
	var diffs []string
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			diffs = append(diffs, fmt.Sprintf("%s: got %#v, want %#v", g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface()))
		}
	}
	return diffs
}

// A port taken between the moment Start chose it and the moment Jaeger
// binds it, whichever of the three it is, fails the attempt as
// errPortTaken, so Start tries again on other ports; the taken port
// accepts connections all the while, as another program's would.
func TestTakenPortIsTriedAgain(t *testing.T) {
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		t.Skipf("%s is not set", EnvBinary)
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	ports, err := freePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"OTLP/HTTP", "OTLP/gRPC", "query HTTP"} {
		t.Run(name, func(t *testing.T) {
			p := slices.Clone(ports)
			p = slices.Insert(p, i, taken.Addr().String())
			_, err := start(t, bin, t.TempDir(), p)
			if !errors.Is(err, errPortTaken) {
				t.Fatalf("got %v, want errPortTaken", err)
			}
		})
	}
}

// envValue is the value of name in env, "" when absent.
func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == name {
			return v
		}
	}
	return ""
}
