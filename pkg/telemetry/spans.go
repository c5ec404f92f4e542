package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/chainrun/chainrun/pkg/event"
)

// modelRequest is one request to a model: a GenAI inference span
// ("chat MODEL"), under the attempt of the step that asked (the run for
// a workflow's decision).
func (r *Run) modelRequest(e event.Event) {
	start := e.Time.Add(-time.Duration(e.DurationMS) * time.Millisecond)
	model := modelName(e.Model)
	attrs := []attribute.KeyValue{keyOperation.String("chat"), keyProvider.String(providerName(e.Model)), keyRequestModel.String(model),
		keyInputTokens.Int(e.InputTokens), keyOutputTokens.Int(e.OutputTokens), keyRequestTry.Int(e.Attempt)}
	if e.CacheReadTokens > 0 || e.CacheWriteTokens > 0 {
		attrs = append(attrs, keyCacheRead.Int(e.CacheReadTokens), keyCacheWrite.Int(e.CacheWriteTokens))
	}
	if e.ResponseModel != "" {
		attrs = append(attrs, keyResponseModel.String(e.ResponseModel))
	}
	if e.FinishReason != "" {
		attrs = append(attrs, keyFinishReasons.StringSlice([]string{finishReason(e.FinishReason)}))
	}
	if e.Turn > 0 {
		attrs = append(attrs, keyTurn.Int(e.Turn))
	}
	if e.CostUSD != nil {
		attrs = append(attrs, keyCost.Float64(*e.CostUSD))
	}
	if e.Detail != "" {
		attrs = append(attrs, keyDetail.String(e.Detail))
	}
	if e.State != "" {
		attrs = append(attrs, keyState.String(e.State))
	}
	if r.capture {
		if e.Prompt != "" {
			attrs = append(attrs, keyInputMessages.String(e.Prompt))
		}
		if e.Answer != "" {
			attrs = append(attrs, keyOutputMessages.String(e.Answer))
		}
	}
	_, span := r.x.tracer.Start(r.parentOf(e.Step), "chat "+model, trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	if e.Status == event.Failed || e.Status == event.Retrying {
		span.SetStatus(codes.Error, e.Error)
		span.SetAttributes(keyErrorType.String(errorType(e.Error)))
	}
	span.End(trace.WithTimestamp(e.Time))
}

// toolCall is one tool call of an agent step: an execute_tool span.
func (r *Run) toolCall(e event.Event) {
	start := e.Time.Add(-time.Duration(e.DurationMS) * time.Millisecond)
	_, span := r.x.tracer.Start(r.parentOf(e.Step), "execute_tool "+e.Tool, trace.WithTimestamp(start), trace.WithAttributes(
		keyOperation.String("execute_tool"), keyToolName.String(e.Tool), keyToolType.String("function"),
		keyToolStatus.String(string(e.Status)), keyToolDigest.String(e.Digest)))
	if e.Status != event.OK && e.Status != "" {
		span.SetStatus(codes.Error, firstNonEmpty(e.Error, string(e.Status)))
		span.SetAttributes(keyErrorType.String(string(e.Status)))
	}
	span.End(trace.WithTimestamp(e.Time))
}

// transition is a workflow transition taken, from State to Target.
func (r *Run) transition(e event.Event) {
	start := e.Time.Add(-time.Duration(e.DurationMS) * time.Millisecond)
	attrs := []attribute.KeyValue{keyTransition.String(e.Step), keyState.String(e.State), keyTarget.String(e.Target)}
	attrs = appendIf(attrs, keyActor, e.Actor)
	attrs = appendIf(attrs, keyDecidedBy, e.DecidedBy)
	attrs = appendIf(attrs, keyPrincipal, e.Principal)
	_, span := r.x.tracer.Start(r.parentOf(""), "transition "+e.Step, trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	if e.Status == event.Failed {
		span.SetStatus(codes.Error, e.Error)
	}
	span.End(trace.WithTimestamp(e.Time))
}

// decision is a choice made at a decision point, or a pause for one.
func (r *Run) decision(e event.Event) {
	attrs := []attribute.KeyValue{keyState.String(e.State), keyDecisionStat.String(string(e.Status))}
	attrs = appendIf(attrs, keyTransition, e.Step)
	attrs = appendIf(attrs, keyTarget, e.Target)
	attrs = appendIf(attrs, keyActor, e.Actor)
	attrs = appendIf(attrs, keyDecidedBy, e.DecidedBy)
	attrs = appendIf(attrs, keyPrincipal, e.Principal)
	attrs = appendIf(attrs, keyDetail, e.Detail)
	_, span := r.x.tracer.Start(r.parentOf(""), "decision "+e.State, trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
	span.End(trace.WithTimestamp(e.Time))
}
