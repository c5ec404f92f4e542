package telemetry

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// Run makes the spans of one run from its events. It is an event.Sink:
// the run's view hands it every event, as it does to the progress lines.
type Run struct {
	x       *Exporter
	tc      tracectx.Context
	parent  trace.SpanContext
	links   []trace.Link
	capture bool

	mu        sync.Mutex
	run       trace.Span
	runCtx    context.Context
	runEnd    time.Time
	runStatus string
	kinds     map[string]string
	open      map[string]*attemptSpan
	ended     bool
	// endsWithRun ends the run's span at run.finished, for a process
	// that serves many runs (EndWithRun).
	endsWithRun bool
}

// attemptSpan is the open span of a step's attempt.
type attemptSpan struct {
	span   trace.Span
	ctx    context.Context
	n      int
	items  int
	failed string
}

// NewRun begins the trace of one run. own is the run's place chainrun
// chose (its trace id and span id, which its commands were handed), zero
// to choose here; parent is the trace it continues (TRACEPARENT in
// chainrun's environment, an MCP client's request), zero for none;
// earlier are the traceparents of the earlier attempts of the same run (a
// resume), which its span links to. Nothing is exported until the run's
// events come.
func (x *Exporter) NewRun(own, parent tracectx.Context, earlier []string) *Run {
	if x == nil {
		return nil
	}
	r := &Run{x: x, capture: x.settings.CaptureContent, kinds: map[string]string{}, open: map[string]*attemptSpan{}}
	if parent.IsValid() {
		r.tc = tracectx.Context{Trace: parent.Trace, Sampled: parent.Sampled, State: parent.State}
		ts, _ := trace.ParseTraceState(parent.State)
		flags := trace.TraceFlags(0)
		if parent.Sampled {
			flags = trace.FlagsSampled
		}
		r.parent = trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID(parent.Trace), SpanID: trace.SpanID(parent.Span),
			TraceFlags: flags, TraceState: ts, Remote: true})
	} else {
		r.tc = tracectx.NewTrace()
	}
	r.tc.Span = tracectx.RunSpan(r.tc.Trace)
	if own.IsValid() {
		r.tc = own
	}
	for _, tp := range earlier {
		if c, err := tracectx.Parse(tp, ""); err == nil {
			r.links = append(r.links, trace.Link{SpanContext: trace.NewSpanContext(trace.SpanContextConfig{
				TraceID: trace.TraceID(c.Trace), SpanID: trace.SpanID(c.Span), TraceFlags: trace.FlagsSampled, Remote: true}),
				Attributes: []attribute.KeyValue{attribute.String("chainrun.link", "earlier attempt of the run")}})
		}
	}
	x.mu.Lock()
	x.runs = append(x.runs, r)
	x.mu.Unlock()
	return r
}

// Context is the run's place in its trace: its trace id and the id of
// its run span, which the engine derives its steps' spans from.
func (r *Run) Context() tracectx.Context {
	if r == nil {
		return tracectx.Context{}
	}
	return r.tc
}

// Emit makes spans of the run's events.
func (r *Run) Emit(e event.Event) {
	switch e.Type {
	case event.StepLog, event.LLMDelta, event.StepStreamed, event.StepSaved, event.StepBegun, event.StepProcess, event.TransitionSaved:
		return // many, or said by the spans already
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return
	}
	switch e.Type {
	case event.RunStarted:
		r.startRun(e)
	case event.RunFinished:
		r.runEnd, r.runStatus = e.Time, string(e.Status)
		for step := range r.open {
			r.endAttempt(step, e.Time, "", "")
		}
		if r.endsWithRun {
			r.end(-1)
		}
	case event.StepStarted:
		r.kinds[e.Step] = e.Kind
	case event.StepAttempt:
		r.attempt(e)
	case event.StepFinished:
		r.finished(e)
	case event.LLMCall:
		r.modelRequest(e)
	case event.ToolCall:
		r.toolCall(e)
	case event.Transition:
		r.transition(e)
	case event.Decision:
		r.decision(e)
	}
}

func (r *Run) startRun(e event.Event) {
	if r.run != nil {
		return
	}
	ctx := context.Background()
	if r.parent.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, r.parent)
	}
	ctx = withIDs(ctx, r.tc.Trace, r.tc.Span)
	name := "run"
	if e.Chain != "" {
		name = "run " + e.Chain
	}
	ctx, r.run = r.x.tracer.Start(ctx, name, trace.WithTimestamp(e.Time), trace.WithLinks(r.links...),
		trace.WithAttributes(keyRunID.String(e.RunID), keyChain.String(e.Chain)))
	r.runCtx = consumed(ctx)
}

// parentOf is the context a step's spans start under: its open attempt,
// else the run.
func (r *Run) parentOf(step string) context.Context {
	if a := r.open[step]; a != nil && step != "" {
		return a.ctx
	}
	if r.runCtx == nil {
		r.startRun(event.Event{Time: time.Now()})
	}
	return r.runCtx
}

func (r *Run) attempt(e event.Event) {
	a := r.open[e.Step]
	if e.Status == event.Retrying {
		if a != nil && a.n == e.Attempt {
			a.failed = e.Error
			a.span.SetAttributes(keyRetryIn.String(e.Detail))
			if a.items <= 1 {
				r.endAttempt(e.Step, e.Time, string(event.Failed), e.Error)
			}
		}
		return
	}
	if a != nil {
		if a.n == e.Attempt {
			a.items++ // a for_each item: its step's attempt span holds them
			return
		}
		r.endAttempt(e.Step, e.Time, "", "")
	}
	n := max(e.Attempt, 1)
	kind := r.kinds[e.Step]
	spanKind := trace.SpanKindInternal
	switch kind {
	case "http", "rest", "webhook", "mcp", "browser", "http_fetch":
		spanKind = trace.SpanKindClient // it sends a request, with traceparent
	}
	attrs := []attribute.KeyValue{keyStep.String(e.Step), keyStepKind.String(kind), keyAttempt.Int(n), keyRetry.Int(n - 1)}
	if e.Handler != "" {
		attrs = append(attrs, keyHandler.String(e.Handler))
	}
	ctx := withIDs(r.parentOf(""), r.tc.Trace, tracectx.AttemptSpan(r.tc.Trace, e.Step, n))
	ctx, span := r.x.tracer.Start(ctx, "step "+e.Step, trace.WithTimestamp(e.Time), trace.WithSpanKind(spanKind), trace.WithAttributes(attrs...))
	r.open[e.Step] = &attemptSpan{span: span, ctx: consumed(ctx), n: n, items: 1}
}

// endAttempt ends step's open attempt span at end with status (a step
// status, empty when the attempt was followed by another).
func (r *Run) endAttempt(step string, end time.Time, status, errText string) {
	a := r.open[step]
	if a == nil {
		return
	}
	delete(r.open, step)
	if status == "" && a.failed != "" {
		status, errText = string(event.Failed), a.failed
	}
	if status != "" {
		a.span.SetAttributes(keyStepStatus.String(status))
	}
	if status == string(event.Failed) {
		a.span.SetStatus(codes.Error, errText)
		a.span.SetAttributes(keyErrorType.String("step_failed"))
	}
	if a.items > 1 {
		a.span.SetAttributes(attribute.Int("chainrun.step.items", a.items))
	}
	a.span.End(trace.WithTimestamp(end))
}

func (r *Run) finished(e event.Event) {
	if r.open[e.Step] == nil {
		// a step that never ran (skipped, or refused before its first
		// attempt) is a span of no length, so the tree shows every step
		attrs := []attribute.KeyValue{keyStep.String(e.Step), keyStepKind.String(firstNonEmpty(e.Kind, r.kinds[e.Step])), keyStepStatus.String(string(e.Status))}
		if e.Detail != "" {
			attrs = append(attrs, keyDetail.String(e.Detail))
		}
		_, span := r.x.tracer.Start(r.parentOf(""), "step "+e.Step, trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
		if e.Status == event.Failed {
			span.SetStatus(codes.Error, e.Error)
		}
		span.End(trace.WithTimestamp(e.Time))
		return
	}
	r.endAttempt(e.Step, e.Time, string(e.Status), e.Error)
}

// NewServedRun is NewRun for a run chainrun mcp serves, which serves
// many for as long as its client stays: the run's span ends with the run
// (run.finished), not with the process, and has no exit code. parent is
// the trace of the client's request, zero when it sent none.
func (x *Exporter) NewServedRun(own, parent tracectx.Context, earlier []string) *Run {
	r := x.NewRun(own, parent, earlier)
	if r != nil {
		r.endsWithRun = true
	}
	return r
}

// End ends the run's span with the command's exit code. The spans are
// sent by the Exporter's Close.
func (r *Run) End(exitCode int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.end(exitCode)
}

// end is End with r.mu held; an exitCode below 0 is none.
func (r *Run) end(exitCode int) {
	if r.ended {
		return
	}
	r.ended = true
	r.x.forget(r)
	if r.run == nil {
		return
	}
	end := r.runEnd
	if end.IsZero() {
		end = time.Now()
	}
	for step := range r.open {
		r.endAttempt(step, end, "", "")
	}
	r.run.SetAttributes(keyRunStatus.String(r.runStatus))
	if exitCode >= 0 {
		r.run.SetAttributes(keyExitCode.Int(exitCode))
	}
	switch {
	case r.runStatus == string(event.Failed):
		r.run.SetStatus(codes.Error, "the run failed")
	case exitCode > 0 && r.runStatus != "paused":
		r.run.SetStatus(codes.Error, "exit code "+strconv.Itoa(exitCode))
	}
	r.run.End(trace.WithTimestamp(end))
}

func appendIf(attrs []attribute.KeyValue, k attribute.Key, v string) []attribute.KeyValue {
	if v == "" {
		return attrs
	}
	return append(attrs, k.String(v))
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// errorType is error.type of a failed model request: the HTTP status the
// provider answered with, as chainrun's model errors write it
// ("openai: HTTP 429: …"), else the conventions' _OTHER.
func errorType(msg string) string {
	if _, rest, ok := strings.Cut(msg, ": HTTP "); ok {
		if code, _, ok := strings.Cut(rest, ":"); ok && len(code) == 3 && strings.Trim(code, "0123456789") == "" {
			return code
		}
	}
	return "_OTHER"
}
