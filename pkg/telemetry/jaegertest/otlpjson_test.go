package jaegertest

import (
	"math"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The OTLP/JSON mapping allows more than one spelling of a value (enums as
// numbers or names, int64 as strings or numbers, doubles JSON has no
// number for as strings); each reads as the same Go value, and a value
// that is none of them is an error naming the span and the field. These
// run without Jaeger.
func TestDecodeSpellings(t *testing.T) {
	wrap := func(span string) string {
		return `{"result":{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{},"spans":[` + span + `]}]}]}}`
	}
	for _, c := range []struct {
		name, span string
		check      func(Span) bool
		err        string
	}{
		{"kind and status by name", `{"traceId":"AB","spanId":"CD","kind":"SPAN_KIND_PRODUCER","status":{"code":"STATUS_CODE_OK"}}`,
			func(s Span) bool {
				return s.Kind == KindProducer && s.Status.Code == StatusOK && s.TraceID == "ab" && s.SpanID == "cd"
			}, ""},
		{"absent kind, status and times are the zero ones", `{"name":"x"}`,
			func(s Span) bool {
				return s.Kind == KindUnspecified && s.Status.Code == StatusUnset && s.Start.IsZero() && s.Attributes == nil
			}, ""},
		{"int64 as a number, doubles as strings", `{"attributes":[{"key":"n","value":{"intValue":-7}},
			{"key":"nan","value":{"doubleValue":"NaN"}},{"key":"inf","value":{"doubleValue":"-Infinity"}},
			{"key":"whole","value":{"doubleValue":2}},{"key":"empty","value":{}},{"key":"kv","value":{"kvlistValue":{}}}]}`,
			func(s Span) bool {
				a := s.Attributes
				return a["n"] == int64(-7) && math.IsNaN(a["nan"].(float64)) && math.IsInf(a["inf"].(float64), -1) &&
					a["whole"] == 2.0 && a["empty"] == nil && reflect.DeepEqual(a["kv"], map[string]any{})
			}, ""},
		{"times read as UTC nanoseconds", `{"startTimeUnixNano":1700000000000000001,"endTimeUnixNano":"1700000000500000001"}`,
			func(s Span) bool {
				return s.Start == time.Date(2023, 11, 14, 22, 13, 20, 1, time.UTC) && s.Duration == 500*time.Millisecond
			}, ""},
		{"an unknown kind number", `{"name":"bad","spanId":"01","kind":9}`, nil, `span "bad" (01): kind: unknown value 9`},
		{"an unknown status name", `{"name":"bad","status":{"code":"STATUS_CODE_MAYBE"}}`, nil, `status code: unknown value "STATUS_CODE_MAYBE"`},
		{"an int that is not one", `{"name":"bad","attributes":[{"key":"n","value":{"intValue":"1.5"}}]}`, nil, `attribute "n"`},
		{"a nested array element that is bad", `{"name":"bad","attributes":[{"key":"a","value":{"arrayValue":{"values":[{"intValue":"1"},{"bytesValue":"!!"}]}}}]}`, nil, `attribute "a": [1]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			traces, err := decodeTraces([]byte(wrap(c.span)))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want an error containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(traces) != 1 || len(traces[0].Spans) != 1 || !c.check(traces[0].Spans[0]) {
				t.Errorf("decoded as %+v", traces)
			}
		})
	}
}

// An error answer of the query API is an error that quotes it; an answer
// without a result is no traces.
func TestDecodeAnswers(t *testing.T) {
	if _, err := decodeTraces([]byte(`{"error":{"httpCode":500,"message":"search depth must be greater than 0"}}`)); err == nil ||
		!strings.Contains(err.Error(), "(500): search depth") {
		t.Errorf("error answer: got %v", err)
	}
	if traces, err := decodeTraces([]byte(`{}`)); err != nil || traces != nil {
		t.Errorf("empty answer: got %v, %v", traces, err)
	}
	if _, err := decodeTraces([]byte(`<html>`)); err == nil || !strings.Contains(err.Error(), "not OTLP/JSON") {
		t.Errorf("not JSON: got %v", err)
	}
}

// The package uses the standard library alone (layers_test.go's table can
// only say it imports nothing of this module): the check of chainrun's
// OTLP export shares no code with the export.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
			t.Errorf("jaegertest imports %s, which is not the standard library", imp)
		}
	}
}
