package telemetry

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// spansOf runs events through a Run exported to memory and returns the
// spans by name (a name seen twice keeps both, in the order ended).
func spansOf(t *testing.T, s Settings, parent tracectx.Context, earlier []string, exit int, events ...event.Event) (*Run, map[string][]sdktrace.ReadOnlySpan) {
	t.Helper()
	mem := tracetest.NewInMemoryExporter()
	x, err := start(context.Background(), mem, s, "v9.9.9", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := x.NewRun(tracectx.Context{}, parent, earlier)
	for _, e := range events {
		r.Emit(e)
	}
	r.End(exit)
	if err := x.tp.ForceFlush(context.Background()); err != nil { // Close would empty the in-memory exporter
		t.Fatal(err)
	}
	byName := map[string][]sdktrace.ReadOnlySpan{}
	ids := map[trace.SpanID]string{}
	for _, s := range mem.GetSpans().Snapshots() {
		byName[s.Name()] = append(byName[s.Name()], s)
		if other, dup := ids[s.SpanContext().SpanID()]; dup {
			t.Errorf("spans %q and %q share the id %s", other, s.Name(), s.SpanContext().SpanID())
		}
		ids[s.SpanContext().SpanID()] = s.Name()
	}
	return r, byName
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func one(t *testing.T, spans map[string][]sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	if len(spans[name]) != 1 {
		names := []string{}
		for n := range spans {
			names = append(names, n)
		}
		t.Fatalf("want one span %q, got %d (spans: %v)", name, len(spans[name]), names)
	}
	return spans[name][0]
}

func TestSpansOfARun(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	events := []event.Event{
		{Time: at(0), Type: event.RunStarted, RunID: "r1", Chain: "deploy"},
		{Time: at(1), Type: event.StepStarted, Step: "build", Kind: "cli"},
		{Time: at(1), Type: event.StepAttempt, Step: "build", Attempt: 1},
		{Time: at(5), Type: event.StepLog, Step: "build", Line: "noise"},
		{Time: at(10), Type: event.StepAttempt, Step: "build", Attempt: 1, Status: event.Retrying, Error: "exit status 1", Detail: "retry in 1s"},
		{Time: at(20), Type: event.StepAttempt, Step: "build", Attempt: 2},
		{Time: at(30), Type: event.StepFinished, Step: "build", Kind: "cli", Status: event.OK},
		{Time: at(31), Type: event.StepStarted, Step: "ask", Kind: "agent"},
		{Time: at(31), Type: event.StepAttempt, Step: "ask", Attempt: 1},
		{Time: at(140), Type: event.LLMCall, Step: "ask", Attempt: 1, Model: "openai/gpt-5-mini", DurationMS: 100, InputTokens: 120, OutputTokens: 30, CacheReadTokens: 80, CacheWriteTokens: 20,
			ResponseModel: "gpt-5-mini-2025-08-07", FinishReason: "tool-call", Turn: 1, Prompt: "[secret prompt]", Answer: "[answer]"},
		{Time: at(150), Type: event.ToolCall, Step: "ask", Tool: "Read", DurationMS: 5, Status: event.OK, Digest: "abc"},
		{Time: at(200), Type: event.LLMCall, Step: "ask", Attempt: 1, Model: "anthropic/claude-sonnet-4-5", DurationMS: 40, Status: event.Failed, Error: "anthropic: HTTP 429: overloaded"},
		{Time: at(210), Type: event.StepFinished, Step: "ask", Kind: "agent", Status: event.Failed, Error: "no answer"},
		{Time: at(211), Type: event.StepFinished, Step: "later", Kind: "cli", Status: "skipped", Detail: "a dependency failed"},
		{Time: at(212), Type: event.Transition, Step: "approve", State: "review", Target: "deploy", Actor: "human", DecidedBy: "human"},
		{Time: at(213), Type: event.Decision, State: "deploy", Status: "paused", Actor: "agent"},
		{Time: at(220), Type: event.RunFinished, Status: event.Failed},
	}
	r, spans := spansOf(t, Settings{}, tracectx.Context{}, nil, 1, events...)
	tc := r.Context()

	root := one(t, spans, "run deploy")
	if root.Parent().IsValid() {
		t.Errorf("a run that continues no trace is a root, got parent %v", root.Parent())
	}
	if root.SpanContext().TraceID() != trace.TraceID(tc.Trace) || root.SpanContext().SpanID() != trace.SpanID(tracectx.RunSpan(tc.Trace)) {
		t.Errorf("run span ids %v/%v, want the derived ones", root.SpanContext().TraceID(), root.SpanContext().SpanID())
	}
	if a := attrs(root); a[keyRunID].AsString() != "r1" || a[keyExitCode].AsInt64() != 1 || a[keyRunStatus].AsString() != "failed" {
		t.Errorf("run attributes %v", a)
	}
	if root.Status().Code != codes.Error || !root.EndTime().Equal(at(220)) || !root.StartTime().Equal(at(0)) {
		t.Errorf("run status %v, %v..%v", root.Status(), root.StartTime(), root.EndTime())
	}

	builds := spans["step build"]
	if len(builds) != 2 {
		t.Fatalf("want a span per attempt of build, got %d", len(builds))
	}
	for i, s := range builds {
		n := i + 1
		if s.Parent().SpanID() != root.SpanContext().SpanID() {
			t.Errorf("attempt %d's parent is %v, want the run", n, s.Parent().SpanID())
		}
		if s.SpanContext().SpanID() != trace.SpanID(tracectx.AttemptSpan(tc.Trace, "build", n)) {
			t.Errorf("attempt %d's id is not the one its command was handed", n)
		}
		if a := attrs(s); a[keyAttempt].AsInt64() != int64(n) || a[keyRetry].AsInt64() != int64(n-1) || a[keyStepKind].AsString() != "cli" {
			t.Errorf("attempt %d attributes %v", n, a)
		}
	}
	if builds[0].Status().Code != codes.Error || builds[0].Status().Description != "exit status 1" || !builds[0].EndTime().Equal(at(10)) {
		t.Errorf("the failed attempt: %v ending %v", builds[0].Status(), builds[0].EndTime())
	}
	if builds[1].Status().Code == codes.Error || !builds[1].EndTime().Equal(at(30)) {
		t.Errorf("the attempt that succeeded: %v ending %v", builds[1].Status(), builds[1].EndTime())
	}

	ask := one(t, spans, "step ask")
	chat := one(t, spans, "chat gpt-5-mini")
	if chat.Parent().SpanID() != ask.SpanContext().SpanID() || chat.SpanKind() != trace.SpanKindClient {
		t.Errorf("a model request is a client span under its step's attempt: parent %v kind %v", chat.Parent().SpanID(), chat.SpanKind())
	}
	a := attrs(chat)
	want := map[attribute.Key]any{keyOperation: "chat", keyProvider: "openai", keyRequestModel: "gpt-5-mini",
		keyResponseModel: "gpt-5-mini-2025-08-07", keyInputTokens: int64(120), keyOutputTokens: int64(30),
		keyCacheRead: int64(80), keyCacheWrite: int64(20)}
	for k, v := range want {
		if a[k].AsInterface() != v {
			t.Errorf("chat %s = %v, want %v", k, a[k].AsInterface(), v)
		}
	}
	if got := a[keyFinishReasons].AsStringSlice(); len(got) != 1 || got[0] != "tool_call" {
		t.Errorf("finish reasons %v", got)
	}
	if _, ok := a[keyInputMessages]; ok {
		t.Error("prompts are on spans only when capture_content asks")
	}
	if !chat.StartTime().Equal(at(40)) || !chat.EndTime().Equal(at(140)) {
		t.Errorf("chat from %v to %v, want the request's 100 ms", chat.StartTime(), chat.EndTime())
	}
	failed := one(t, spans, "chat claude-sonnet-4-5")
	if failed.Status().Code != codes.Error || attrs(failed)[keyErrorType].AsString() != "429" || attrs(failed)[keyProvider].AsString() != "anthropic" {
		t.Errorf("a failed request: %v %v", failed.Status(), attrs(failed))
	}
	tool := one(t, spans, "execute_tool Read")
	if tool.Parent().SpanID() != ask.SpanContext().SpanID() || attrs(tool)[keyOperation].AsString() != "execute_tool" || attrs(tool)[keyToolName].AsString() != "Read" {
		t.Errorf("tool span: parent %v attrs %v", tool.Parent().SpanID(), attrs(tool))
	}
	if ask.Status().Code != codes.Error || ask.Status().Description != "no answer" {
		t.Errorf("the failed step: %v", ask.Status())
	}

	later := one(t, spans, "step later")
	if !later.StartTime().Equal(later.EndTime()) || attrs(later)[keyStepStatus].AsString() != "skipped" || later.Parent().SpanID() != root.SpanContext().SpanID() {
		t.Errorf("a skipped step: %v..%v %v", later.StartTime(), later.EndTime(), attrs(later))
	}
	tr := one(t, spans, "transition approve")
	if a := attrs(tr); a[keyState].AsString() != "review" || a[keyTarget].AsString() != "deploy" || a[keyDecidedBy].AsString() != "human" {
		t.Errorf("transition attributes %v", a)
	}
	dec := one(t, spans, "decision deploy")
	if a := attrs(dec); a[keyDecisionStat].AsString() != "paused" || a[keyActor].AsString() != "agent" {
		t.Errorf("decision attributes %v", a)
	}
	if _, ok := spans["step build"]; !ok || len(spans) != 9 {
		t.Errorf("want 9 span names (no span of a log line), got %d", len(spans))
	}
}

func TestARunContinuesItsParentAndLinksEarlierAttempts(t *testing.T) {
	parent, _ := tracectx.Parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=x")
	earlier := []string{"00-11111111111111111111111111111111-2222222222222222-01", "not a traceparent"}
	r, spans := spansOf(t, Settings{CaptureContent: true}, parent, earlier, 0,
		event.Event{Type: event.RunStarted, RunID: "r2", Chain: "c"},
		event.Event{Type: event.StepAttempt, Step: "ask", Attempt: 1},
		event.Event{Type: event.LLMCall, Step: "ask", Model: "ollama/llama3.2", Prompt: `[{"role":"user"}]`, Answer: `[{"role":"assistant"}]`},
		event.Event{Type: event.RunFinished, Status: event.OK})
	root := one(t, spans, "run c")
	if root.Parent().SpanID() != trace.SpanID(parent.Span) || root.SpanContext().TraceID() != trace.TraceID(parent.Trace) {
		t.Errorf("the run continues TRACEPARENT: parent %v trace %v", root.Parent(), root.SpanContext().TraceID())
	}
	if r.Context().Trace != parent.Trace || r.Context().State != "vendor=x" || r.Context().Span != tracectx.RunSpan(parent.Trace) {
		t.Errorf("the run's context %+v", r.Context())
	}
	if got := root.SpanContext().TraceState().String(); got != "vendor=x" {
		t.Errorf("tracestate carried along: %q", got)
	}
	links := root.Links()
	if len(links) != 1 || links[0].SpanContext.TraceID().String() != "11111111111111111111111111111111" || links[0].SpanContext.SpanID().String() != "2222222222222222" {
		t.Errorf("a resume links the earlier attempt's run span (a malformed one left out): %v", links)
	}
	if root.Status().Code == codes.Error {
		t.Errorf("a run that succeeded: %v", root.Status())
	}
	a := attrs(one(t, spans, "chat llama3.2"))
	if a[keyInputMessages].AsString() != `[{"role":"user"}]` || a[keyOutputMessages].AsString() != `[{"role":"assistant"}]` {
		t.Errorf("capture_content puts the messages on the span: %v", a)
	}
}

func TestForEachItemsShareTheirAttemptSpan(t *testing.T) {
	_, spans := spansOf(t, Settings{}, tracectx.Context{}, nil, 0,
		event.Event{Type: event.RunStarted, Chain: "c"},
		event.Event{Type: event.StepAttempt, Step: "each", Attempt: 1},
		event.Event{Type: event.StepAttempt, Step: "each", Attempt: 1},
		event.Event{Type: event.StepAttempt, Step: "each", Attempt: 1},
		event.Event{Type: event.StepFinished, Step: "each", Status: event.OK},
		event.Event{Type: event.RunFinished, Status: event.OK})
	s := one(t, spans, "step each")
	if attrs(s)[attribute.Key("chainrun.step.items")].AsInt64() != 3 {
		t.Errorf("items %v", attrs(s))
	}
}

func TestEventsAfterTheEndAreIgnored(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	x, err := start(context.Background(), mem, Settings{}, "v", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := x.NewRun(tracectx.Context{}, tracectx.Context{}, nil)
	r.Emit(event.Event{Type: event.StepAttempt, Step: "a", Attempt: 1}) // before run.started: a run span is made
	r.End(130)
	r.Emit(event.Event{Type: event.StepAttempt, Step: "b", Attempt: 1})
	r.End(0)
	if err := x.tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(mem.GetSpans()); n != 2 {
		t.Fatalf("want the run and step a, got %d spans", n)
	}
	var nilRun *Run
	nilRun.End(0) // a command without export ends nothing
	if nilRun.Context().IsValid() {
		t.Error("no run, no trace")
	}
}

// TestARunServedEndsWithItself: a run chainrun mcp serves ends its span at
// run.finished, without an exit code, and leaves the exporter's list.
func TestARunServedEndsWithItself(t *testing.T) {
	mem := tracetest.NewInMemoryExporter()
	x, err := start(context.Background(), mem, Settings{}, "v", nil)
	if err != nil {
		t.Fatal(err)
	}
	parent, _ := tracectx.Parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "")
	r := x.NewServedRun(tracectx.Context{}, parent, nil)
	r.Emit(event.Event{Type: event.RunStarted, Chain: "c"})
	r.Emit(event.Event{Type: event.RunFinished, Status: event.Failed})
	if err := x.tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := mem.GetSpans()
	if len(spans) != 1 || spans[0].Parent.SpanID() != trace.SpanID(parent.Span) || spans[0].Status.Code != codes.Error {
		t.Fatalf("spans %+v", spans)
	}
	for _, kv := range spans[0].Attributes {
		if kv.Key == keyExitCode {
			t.Error("a served run has no exit code")
		}
	}
	if len(x.runs) != 0 {
		t.Error("an ended run stays in the exporter")
	}
}

func TestErrorTypeIsTheAnsweredStatus(t *testing.T) {
	for msg, want := range map[string]string{
		"anthropic: HTTP 429: overloaded":                     "429",
		"gateway: HTTP 503: busy":                             "503",
		"openai: the answer was cut at max_tokens 500":        "_OTHER",
		"openai: dial tcp 127.0.0.1:4318: connection refused": "_OTHER",
		"x: HTTP abc: nonsense":                               "_OTHER",
	} {
		if got := errorType(msg); got != want {
			t.Errorf("errorType(%q) = %s, want %s", msg, got, want)
		}
	}
}
