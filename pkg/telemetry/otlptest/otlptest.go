// Package otlptest is an OTLP/HTTP trace receiver for tests: it decodes
// what chainrun exports with the official OTLP messages, so a test can
// read back the spans a run made without a backend. (The tests that need
// a real backend run Jaeger: pkg/telemetry/jaegertest.) It is imported
// only by tests. It imports nothing of this module.
package otlptest

import (
	"compress/gzip"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Receiver is an OTLP/HTTP endpoint (POST /v1/traces, protobuf).
type Receiver struct {
	*httptest.Server
	// Fail answers 503 (Retry-After: 0) to this many requests first.
	Fail atomic.Int32

	mu       sync.Mutex
	requests []*coltracepb.ExportTraceServiceRequest
	headers  []http.Header
}

// Start starts a receiver; Close stops it.
func Start() *Receiver {
	rc := &Receiver{}
	rc.Server = httptest.NewServer(rc)
	return rc
}

// ServeHTTP takes one export.
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" || r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "bad request "+r.Method+" "+r.URL.Path, http.StatusBadRequest)
		return
	}
	if rc.Fail.Add(-1) >= 0 {
		w.Header().Set("Retry-After", "0")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = z
	}
	b, _ := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.requests = append(rc.requests, &req)
	rc.headers = append(rc.headers, r.Header.Clone())
	rc.mu.Unlock()
	resp, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(resp)
}

// Requests are the exports received, in order.
func (rc *Receiver) Requests() []*coltracepb.ExportTraceServiceRequest {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]*coltracepb.ExportTraceServiceRequest(nil), rc.requests...)
}

// Headers are the headers of each export received.
func (rc *Receiver) Headers() []http.Header {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]http.Header(nil), rc.headers...)
}

// Span is a received span with its ids in hex.
type Span struct {
	*tracepb.Span
	TraceID, SpanID, ParentID string
	// Resource is the span's resource attributes (string values).
	Resource map[string]string
}

// Attr is the value of one of the span's attributes, as text, int64,
// float64, bool or []any; nil when it has none.
func (s Span) Attr(key string) any {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return value(kv.Value.GetValue())
		}
	}
	return nil
}

// Spans are every span received, in order.
func (rc *Receiver) Spans() []Span {
	var out []Span
	for _, req := range rc.Requests() {
		for _, rs := range req.ResourceSpans {
			res := map[string]string{}
			for _, kv := range rs.GetResource().GetAttributes() {
				res[kv.Key] = kv.Value.GetStringValue()
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					out = append(out, Span{Span: s, TraceID: hex.EncodeToString(s.TraceId), SpanID: hex.EncodeToString(s.SpanId),
						ParentID: hex.EncodeToString(s.ParentSpanId), Resource: res})
				}
			}
		}
	}
	return out
}

// Named are the received spans of that name.
func (rc *Receiver) Named(name string) []Span {
	var out []Span
	for _, s := range rc.Spans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}
