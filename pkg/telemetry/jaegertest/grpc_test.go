package jaegertest

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net/http"
	"testing"
	"time"
)

// The OTLP/gRPC receiver listens on OTLPGRPCEndpoint and takes a span
// sent by gRPC's Export call (over cleartext HTTP/2, as an exporter with
// an insecure endpoint sends it); the span comes back through the query
// API.
func TestGRPCReceiverTakesSpans(t *testing.T) {
	j := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	const traceID, spanID = "a3ce929d0e0e47364bf92f3577b34da6", "b7ad6b7169203331"
	start := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC)
	msg := exportRequest("jaegertest-grpc", traceID, spanID, "step build", start, start.Add(3*time.Second))
	frame := binary.BigEndian.AppendUint32([]byte{0}, uint32(len(msg))) // uncompressed, length-prefixed
	frame = append(frame, msg...)

	if got := envValue(j.GRPCEnv(), "OTEL_EXPORTER_OTLP_PROTOCOL"); got != "grpc" {
		t.Errorf("GRPCEnv's protocol: %q", got)
	}
	protocols := new(http.Protocols)
	protocols.SetUnencryptedHTTP2(true)
	client := &http.Client{Transport: &http.Transport{Protocols: protocols}, Timeout: 10 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		envValue(j.GRPCEnv(), "OTEL_EXPORTER_OTLP_ENDPOINT")+"/opentelemetry.proto.collector.trace.v1.TraceService/Export", bytes.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("TE", "trailers")
	defer client.CloseIdleConnections() // else Jaeger's graceful stop waits for it
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("the gRPC port does not answer HTTP/2: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	status := resp.Trailer.Get("Grpc-Status")
	if status == "" {
		status = resp.Header.Get("Grpc-Status") // a trailers-only answer
	}
	if resp.StatusCode != http.StatusOK || status != "0" {
		t.Fatalf("Export: HTTP %d, grpc-status %q, grpc-message %q", resp.StatusCode, status,
			resp.Trailer.Get("Grpc-Message")+resp.Header.Get("Grpc-Message"))
	}

	tr, err := j.WaitForTrace(ctx, traceID, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := tr.Spans[0]
	if s.SpanID != spanID || s.Name != "step build" || s.Kind != KindInternal || s.Service != "jaegertest-grpc" ||
		!s.Start.Equal(start) || s.Duration != 3*time.Second || s.ParentSpanID != "" || s.Status.Code != StatusUnset {
		t.Errorf("the span sent over gRPC came back as %+v", s)
	}
}

// exportRequest is an opentelemetry.proto.collector.trace.v1
// ExportTraceServiceRequest in protobuf's wire format: one resource
// (service.name), one scope, one internal span.
func exportRequest(service, traceID, spanID, name string, start, end time.Time) []byte {
	tid, _ := hex.DecodeString(traceID)
	sid, _ := hex.DecodeString(spanID)
	anyValue := pbBytes(nil, 1, []byte(service))                              // AnyValue.string_value
	keyValue := pbBytes(pbBytes(nil, 1, []byte("service.name")), 2, anyValue) // KeyValue.key, value
	resource := pbBytes(nil, 1, keyValue)                                     // Resource.attributes
	span := pbBytes(nil, 1, tid)                                              // Span.trace_id
	span = pbBytes(span, 2, sid)                                              // span_id
	span = pbBytes(span, 5, []byte(name))                                     // name
	span = binary.AppendUvarint(pbTag(span, 6, 0), 1)                         // kind: SPAN_KIND_INTERNAL
	span = binary.LittleEndian.AppendUint64(pbTag(span, 7, 1), uint64(start.UnixNano()))
	span = binary.LittleEndian.AppendUint64(pbTag(span, 8, 1), uint64(end.UnixNano()))
	scope := pbBytes(nil, 1, []byte("jaegertest"))         // InstrumentationScope.name
	scopeSpans := pbBytes(pbBytes(nil, 1, scope), 2, span) // ScopeSpans.scope, spans
	resourceSpans := pbBytes(pbBytes(nil, 1, resource), 2, scopeSpans)
	return pbBytes(nil, 1, resourceSpans) // ExportTraceServiceRequest.resource_spans
}

// pbTag appends a protobuf field key.
func pbTag(b []byte, field, wireType int) []byte {
	return binary.AppendUvarint(b, uint64(field<<3|wireType))
}

// pbBytes appends a length-delimited field (bytes, string, message).
func pbBytes(b []byte, field int, v []byte) []byte {
	b = binary.AppendUvarint(pbTag(b, field, 2), uint64(len(v)))
	return append(b, v...)
}
