package jaegertest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The query API's answer: OTLP/JSON (the protobuf JSON mapping of
// opentelemetry.proto.trace.v1.TracesData) inside {"result": …}. Only the
// fields a Span carries are read.
type (
	apiAnswer struct {
		Result *tracesData `json:"result"`
		Error  *struct {
			HTTPCode int    `json:"httpCode"`
			Message  string `json:"message"`
		} `json:"error"`
	}
	tracesData struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []keyValue `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Scope struct {
					Name string `json:"name"`
				} `json:"scope"`
				Spans []wireSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	wireSpan struct {
		TraceID           string          `json:"traceId"`
		SpanID            string          `json:"spanId"`
		ParentSpanID      string          `json:"parentSpanId"`
		Name              string          `json:"name"`
		Kind              json.RawMessage `json:"kind"`
		StartTimeUnixNano json.RawMessage `json:"startTimeUnixNano"`
		EndTimeUnixNano   json.RawMessage `json:"endTimeUnixNano"`
		Attributes        []keyValue      `json:"attributes"`
		Events            []struct {
			TimeUnixNano json.RawMessage `json:"timeUnixNano"`
			Name         string          `json:"name"`
			Attributes   []keyValue      `json:"attributes"`
		} `json:"events"`
		Links []struct {
			TraceID    string     `json:"traceId"`
			SpanID     string     `json:"spanId"`
			Attributes []keyValue `json:"attributes"`
		} `json:"links"`
		Status struct {
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		} `json:"status"`
	}
	keyValue struct {
		Key   string   `json:"key"`
		Value anyValue `json:"value"`
	}
	anyValue struct {
		StringValue *string         `json:"stringValue"`
		BoolValue   *bool           `json:"boolValue"`
		IntValue    json.RawMessage `json:"intValue"`
		DoubleValue json.RawMessage `json:"doubleValue"`
		BytesValue  *string         `json:"bytesValue"`
		ArrayValue  *struct {
			Values []anyValue `json:"values"`
		} `json:"arrayValue"`
		KvlistValue *struct {
			Values []keyValue `json:"values"`
		} `json:"kvlistValue"`
	}
)

// The names of the OTLP enums, by number; the JSON mapping may write
// either the number or the name.
var (
	kindNames   = []SpanKind{KindUnspecified, KindInternal, KindServer, KindClient, KindProducer, KindConsumer}
	statusNames = []StatusCode{StatusUnset, StatusOK, StatusError}
)

// decodeTraces turns the query API's answer into traces, grouped by trace
// ID, each trace's spans in order.
func decodeTraces(body []byte) ([]Trace, error) {
	var ans apiAnswer
	if err := json.Unmarshal(body, &ans); err != nil {
		return nil, fmt.Errorf("the query API's answer is not OTLP/JSON: %w", err)
	}
	if ans.Error != nil {
		return nil, fmt.Errorf("the query API answered an error (%d): %s", ans.Error.HTTPCode, ans.Error.Message)
	}
	if ans.Result == nil {
		return nil, nil
	}
	var order []string
	byID := map[string]*Trace{}
	for _, rs := range ans.Result.ResourceSpans {
		resource, err := attributes(rs.Resource.Attributes)
		if err != nil {
			return nil, fmt.Errorf("resource: %w", err)
		}
		service, _ := resource["service.name"].(string)
		for _, ss := range rs.ScopeSpans {
			for _, ws := range ss.Spans {
				s, err := ws.span()
				if err != nil {
					return nil, fmt.Errorf("span %q (%s): %w", ws.Name, ws.SpanID, err)
				}
				s.Service, s.Resource, s.Scope = service, resource, ss.Scope.Name
				tr := byID[s.TraceID]
				if tr == nil {
					tr = &Trace{ID: s.TraceID}
					byID[s.TraceID] = tr
					order = append(order, s.TraceID)
				}
				tr.Spans = append(tr.Spans, s)
			}
		}
	}
	out := make([]Trace, 0, len(order))
	for _, id := range order {
		sortSpans(byID[id].Spans)
		out = append(out, *byID[id])
	}
	return out, nil
}

// span is ws in Go values.
func (ws wireSpan) span() (Span, error) {
	s := Span{
		TraceID:      strings.ToLower(ws.TraceID),
		SpanID:       strings.ToLower(ws.SpanID),
		ParentSpanID: strings.ToLower(ws.ParentSpanID),
		Name:         ws.Name,
		Status:       Status{Message: ws.Status.Message},
	}
	var err error
	if s.Kind, err = enum(ws.Kind, "SPAN_KIND_", kindNames); err != nil {
		return s, fmt.Errorf("kind: %w", err)
	}
	if s.Status.Code, err = enum(ws.Status.Code, "STATUS_CODE_", statusNames); err != nil {
		return s, fmt.Errorf("status code: %w", err)
	}
	start, err := unixNano(ws.StartTimeUnixNano)
	if err != nil {
		return s, fmt.Errorf("start time: %w", err)
	}
	end, err := unixNano(ws.EndTimeUnixNano)
	if err != nil {
		return s, fmt.Errorf("end time: %w", err)
	}
	s.Start, s.Duration = start, end.Sub(start)
	if s.Attributes, err = attributes(ws.Attributes); err != nil {
		return s, err
	}
	for _, we := range ws.Events {
		e := Event{Name: we.Name}
		if e.Time, err = unixNano(we.TimeUnixNano); err != nil {
			return s, fmt.Errorf("event %q: time: %w", we.Name, err)
		}
		if e.Attributes, err = attributes(we.Attributes); err != nil {
			return s, fmt.Errorf("event %q: %w", we.Name, err)
		}
		s.Events = append(s.Events, e)
	}
	for _, wl := range ws.Links {
		l := Link{TraceID: strings.ToLower(wl.TraceID), SpanID: strings.ToLower(wl.SpanID)}
		if l.Attributes, err = attributes(wl.Attributes); err != nil {
			return s, fmt.Errorf("link to %s: %w", wl.SpanID, err)
		}
		s.Links = append(s.Links, l)
	}
	return s, nil
}

// enum reads an OTLP enum written as its number or its name (with
// prefix); absent is the zero value, the first name.
func enum[T ~string](raw json.RawMessage, prefix string, names []T) (T, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return names[0], nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		if n < 0 || n >= len(names) {
			return "", fmt.Errorf("unknown value %d", n)
		}
		return names[n], nil
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return "", fmt.Errorf("neither a number nor a name: %s", raw)
	}
	want := T(strings.ToLower(strings.TrimPrefix(name, prefix)))
	for _, known := range names {
		if known == want {
			return known, nil
		}
	}
	return "", fmt.Errorf("unknown value %q", name)
}

// unixNano reads a fixed64 time in nanoseconds, which the JSON mapping
// writes as a string (or a number), as a UTC time; absent is the zero
// time.
func unixNano(raw json.RawMessage) (time.Time, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(strings.Trim(string(raw), `"`), 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, n).UTC(), nil
}

// attributes turns OTLP key-values into a map of typed values; nil when
// there are none, so a test compares with a literal map or nil.
func attributes(kvs []keyValue) (map[string]any, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		v, err := kv.Value.value()
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", kv.Key, err)
		}
		out[kv.Key] = v
	}
	return out, nil
}

// value is v as string, bool, int64, float64, []byte, []any or
// map[string]any; nil for an empty value.
func (v anyValue) value() (any, error) {
	switch {
	case v.StringValue != nil:
		return *v.StringValue, nil
	case v.BoolValue != nil:
		return *v.BoolValue, nil
	case len(v.IntValue) > 0:
		// int64 is a string in the JSON mapping (a number is accepted too)
		return strconv.ParseInt(strings.Trim(string(v.IntValue), `"`), 10, 64)
	case len(v.DoubleValue) > 0:
		return double(v.DoubleValue)
	case v.BytesValue != nil:
		return base64.StdEncoding.DecodeString(*v.BytesValue)
	case v.ArrayValue != nil:
		out := make([]any, 0, len(v.ArrayValue.Values))
		for i, e := range v.ArrayValue.Values {
			x, err := e.value()
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out = append(out, x)
		}
		return out, nil
	case v.KvlistValue != nil:
		m, err := attributes(v.KvlistValue.Values)
		if m == nil && err == nil {
			m = map[string]any{}
		}
		return m, err
	}
	return nil, nil
}

// double reads a double, which the JSON mapping writes as a number or, for
// the values JSON has no number for, as "NaN", "Infinity", "-Infinity".
func double(raw json.RawMessage) (float64, error) {
	switch strings.Trim(string(raw), `"`) {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	}
	var f float64
	err := json.Unmarshal(raw, &f)
	if err != nil {
		f, err = strconv.ParseFloat(strings.Trim(string(raw), `"`), 64)
	}
	return f, err
}
