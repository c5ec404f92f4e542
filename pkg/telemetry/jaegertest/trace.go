package jaegertest

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Trace is one trace as Jaeger stored it: every span it received with
// that trace ID, from every service, ordered by start time (then name).
type Trace struct {
	ID    string
	Spans []Span
}

// Span is one span as it went over the wire, in Go values a test compares
// directly.
type Span struct {
	TraceID string // 32 lowercase hex digits
	SpanID  string // 16 lowercase hex digits
	// ParentSpanID is the parent's span ID, "" for a root span.
	ParentSpanID string
	Name         string
	Kind         SpanKind
	Start        time.Time
	Duration     time.Duration
	// Attributes hold typed values: string, int64, float64, bool, []byte,
	// []any of those, and map[string]any for a key-value list.
	Attributes map[string]any
	Status     Status
	Events     []Event
	Links      []Link
	// Service is the resource's service.name; Resource all its attributes.
	Service  string
	Resource map[string]any
	// Scope is the instrumentation scope's name (the tracer's name).
	Scope string
}

// SpanKind is a span's kind, as OpenTelemetry names it.
type SpanKind string

// The span kinds of OpenTelemetry.
const (
	KindUnspecified SpanKind = "unspecified"
	KindInternal    SpanKind = "internal"
	KindServer      SpanKind = "server"
	KindClient      SpanKind = "client"
	KindProducer    SpanKind = "producer"
	KindConsumer    SpanKind = "consumer"
)

// Status is a span's status: its code and, for an error, its message.
type Status struct {
	Code    StatusCode
	Message string
}

// StatusCode is a span's status code, as OpenTelemetry names it.
type StatusCode string

// The status codes of OpenTelemetry.
const (
	StatusUnset StatusCode = "unset"
	StatusOK    StatusCode = "ok"
	StatusError StatusCode = "error"
)

// Event is a timed event of a span (an exception, a retry).
type Event struct {
	Name       string
	Time       time.Time
	Attributes map[string]any
}

// Link is a span's link to a span of the same or another trace (a resumed
// run links to the attempt it continues).
type Link struct {
	TraceID, SpanID string
	Attributes      map[string]any
}

// Find is the first span (by start time) named name, nil when none is.
func (tr Trace) Find(name string) *Span {
	for i := range tr.Spans {
		if tr.Spans[i].Name == name {
			return &tr.Spans[i]
		}
	}
	return nil
}

// FindAll is every span named name, by start time.
func (tr Trace) FindAll(name string) []Span {
	var out []Span
	for _, s := range tr.Spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Span is the span with ID id, nil when the trace has none.
func (tr Trace) Span(id string) *Span {
	for i := range tr.Spans {
		if tr.Spans[i].SpanID == id {
			return &tr.Spans[i]
		}
	}
	return nil
}

// Parent is s's parent span, nil for a root or when the parent did not
// arrive.
func (tr Trace) Parent(s Span) *Span {
	if s.ParentSpanID == "" {
		return nil
	}
	return tr.Span(s.ParentSpanID)
}

// Children are the spans whose parent is s, by start time.
func (tr Trace) Children(s Span) []Span {
	return tr.Tree()[s.SpanID]
}

// Roots are the spans without a parent in this trace: the root, and a
// span whose parent is in another process's trace (a TRACEPARENT given to
// chainrun) or never arrived.
func (tr Trace) Roots() []Span {
	var out []Span
	for _, s := range tr.Spans {
		if tr.Parent(s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// Tree is the spans by their parent's span ID, each list by start time.
func (tr Trace) Tree() map[string][]Span {
	tree := make(map[string][]Span)
	for _, s := range tr.Spans {
		tree[s.ParentSpanID] = append(tree[s.ParentSpanID], s)
	}
	return tree
}

// String draws the span tree, one span a line, indented under its parent:
// "name (kind, status)". A test prints it when an assertion fails.
func (tr Trace) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trace %s\n", tr.ID)
	tree := tr.Tree()
	var draw func(s Span, depth int)
	draw = func(s Span, depth int) {
		fmt.Fprintf(&b, "%s%s (%s, %s", strings.Repeat("  ", depth+1), s.Name, s.Kind, s.Status.Code)
		if s.Status.Message != "" {
			fmt.Fprintf(&b, ": %s", s.Status.Message)
		}
		b.WriteString(")\n")
		for _, c := range tree[s.SpanID] {
			draw(c, depth+1)
		}
	}
	for _, r := range tr.Roots() {
		draw(r, 0)
	}
	return b.String()
}

// sortSpans orders spans by start time, then name, then span ID, so a
// trace reads the same every time.
func sortSpans(spans []Span) {
	slices.SortStableFunc(spans, func(a, b Span) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.SpanID, b.SpanID)
	})
}
