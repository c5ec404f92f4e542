package jaegertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The query API read here is Jaeger's API v3 (/api/v3/traces), not the
// older /api/traces: v3 answers in OTLP/JSON, so a span keeps what the
// exporter sent — its parent span ID as a field, its kind and status as
// OTLP enums, its links as links, attribute values with their types
// (int64, double, bool, arrays, key-value lists). /api/traces answers in
// Jaeger's own model, where parents and links become "references", kind
// and status become tags, and an array attribute becomes a JSON string.
//
// Every request asks for raw traces: Jaeger's adjusters (deduplicating
// spans, correcting clock skew, moving attributes) would otherwise hide
// what the exporter got wrong, such as a span sent twice.

// ErrNoTrace says Jaeger holds no trace with the ID asked for.
var ErrNoTrace = errors.New("no such trace")

// waitWithin bounds WaitForSpans and WaitForTrace when ctx has no deadline.
const waitWithin = 30 * time.Second

// pollEvery is how often the Wait methods ask again.
const pollEvery = 100 * time.Millisecond

// The search window of Traces: every start time a test can give a span,
// including the fixed clocks of hermetic runs.
var (
	searchFrom = time.Unix(0, 0).UTC()
	searchTo   = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// Traces are the traces Jaeger holds now that have a span of service,
// each with all its spans (of every service). None is not an error.
func (j *Jaeger) Traces(ctx context.Context, service string) ([]Trace, error) {
	q := url.Values{
		"query.service_name":   {service},
		"query.start_time_min": {searchFrom.Format(time.RFC3339Nano)},
		"query.start_time_max": {searchTo.Format(time.RFC3339Nano)},
		"query.num_traces":     {strconv.Itoa(maxTraces)},
		"query.raw_traces":     {"true"},
	}
	body, status, err := j.get(ctx, "/api/v3/traces?"+q.Encode())
	if err != nil {
		return nil, err
	}
	if status == http.StatusNotFound {
		return nil, nil
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("jaeger's query API answered %d to a search for service %q: %s", status, service, body)
	}
	return decodeTraces(body)
}

// Trace is the trace with ID traceID (32 hex digits) as Jaeger holds it
// now; an error wrapping ErrNoTrace when it holds none.
func (j *Jaeger) Trace(ctx context.Context, traceID string) (Trace, error) {
	body, status, err := j.get(ctx, "/api/v3/traces/"+url.PathEscape(traceID)+"?raw_traces=true")
	if err != nil {
		return Trace{}, err
	}
	if status == http.StatusNotFound {
		return Trace{}, fmt.Errorf("trace %s: %w", traceID, ErrNoTrace)
	}
	if status != http.StatusOK {
		return Trace{}, fmt.Errorf("jaeger's query API answered %d for trace %s: %s", status, traceID, body)
	}
	traces, err := decodeTraces(body)
	if err != nil {
		return Trace{}, err
	}
	for _, tr := range traces {
		if strings.EqualFold(tr.ID, traceID) {
			return tr, nil
		}
	}
	return Trace{}, fmt.Errorf("trace %s: %w (the answer held %d other traces)", traceID, ErrNoTrace, len(traces))
}

// WaitForSpans polls until Jaeger holds at least n spans in the traces of
// service (exporters send in batches, after the spans end) and returns
// those traces. It gives up at ctx's deadline, or after 30 seconds when
// ctx has none, saying how many spans had arrived.
func (j *Jaeger) WaitForSpans(ctx context.Context, service string, n int) ([]Trace, error) {
	var last []Trace
	err := poll(ctx, func() (bool, error) {
		traces, err := j.Traces(ctx, service)
		if err != nil {
			return false, err
		}
		last = traces
		return countSpans(traces) >= n, nil
	})
	if err != nil {
		return last, fmt.Errorf("waiting for %d spans of service %q (%d arrived): %w", n, service, countSpans(last), err)
	}
	return last, nil
}

// WaitForTrace polls until Jaeger holds at least n spans of the trace
// traceID and returns it, within the same bound as WaitForSpans.
func (j *Jaeger) WaitForTrace(ctx context.Context, traceID string, n int) (Trace, error) {
	var last Trace
	err := poll(ctx, func() (bool, error) {
		tr, err := j.Trace(ctx, traceID)
		if errors.Is(err, ErrNoTrace) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		last = tr
		return len(tr.Spans) >= n, nil
	})
	if err != nil {
		return last, fmt.Errorf("waiting for %d spans of trace %s (%d arrived): %w", n, traceID, len(last.Spans), err)
	}
	return last, nil
}

// poll calls done every pollEvery until it says so or fails, or ctx (or
// waitWithin, when ctx has no deadline) ends.
func poll(ctx context.Context, done func() (bool, error)) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, waitWithin)
		defer cancel()
	}
	for {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollEvery):
		}
	}
}

// countSpans is the number of spans in traces.
func countSpans(traces []Trace) int {
	n := 0
	for _, tr := range traces {
		n += len(tr.Spans)
	}
	return n
}

// get asks the query API for path and returns the body and status.
func (j *Jaeger) get(ctx context.Context, path string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.QueryURL()+path, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := j.client.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("jaeger's query API: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, 0, fmt.Errorf("jaeger's query API: %w", err)
	}
	return body, resp.StatusCode, nil
}
