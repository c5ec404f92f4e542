package telemetry

import (
	"strings"

	"go.opentelemetry.io/otel/attribute"
)

// The attribute keys spans carry. The gen_ai.* names are the OpenTelemetry
// GenAI semantic conventions (gen-ai-spans.md: inference and execute_tool
// spans); error.type is the general one; chainrun.* are chainrun's own,
// named as the result's JSON names them. They are written out here rather
// than taken from a semconv package so that no second copy of the
// conventions is linked into every start.
const (
	keyOperation      = attribute.Key("gen_ai.operation.name")
	keyProvider       = attribute.Key("gen_ai.provider.name")
	keyRequestModel   = attribute.Key("gen_ai.request.model")
	keyResponseModel  = attribute.Key("gen_ai.response.model")
	keyInputTokens    = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens   = attribute.Key("gen_ai.usage.output_tokens")
	keyCacheRead      = attribute.Key("gen_ai.usage.cache_read.input_tokens")
	keyCacheWrite     = attribute.Key("gen_ai.usage.cache_creation.input_tokens")
	keyFinishReasons  = attribute.Key("gen_ai.response.finish_reasons")
	keyToolName       = attribute.Key("gen_ai.tool.name")
	keyToolType       = attribute.Key("gen_ai.tool.type")
	keyInputMessages  = attribute.Key("gen_ai.input.messages")
	keyOutputMessages = attribute.Key("gen_ai.output.messages")
	keyErrorType      = attribute.Key("error.type")

	keyRunID        = attribute.Key("chainrun.run.id")
	keyChain        = attribute.Key("chainrun.chain")
	keyRunStatus    = attribute.Key("chainrun.run.status")
	keyExitCode     = attribute.Key("chainrun.exit_code")
	keyStep         = attribute.Key("chainrun.step.id")
	keyStepKind     = attribute.Key("chainrun.step.kind")
	keyStepStatus   = attribute.Key("chainrun.step.status")
	keyAttempt      = attribute.Key("chainrun.step.attempt")
	keyRetry        = attribute.Key("chainrun.step.retry")
	keyRetryIn      = attribute.Key("chainrun.step.retry_in")
	keyHandler      = attribute.Key("chainrun.step.handler")
	keyDetail       = attribute.Key("chainrun.detail")
	keyRequestTry   = attribute.Key("chainrun.llm.attempt")
	keyTurn         = attribute.Key("chainrun.llm.turn")
	keyCost         = attribute.Key("chainrun.cost_usd")
	keyToolStatus   = attribute.Key("chainrun.tool.status")
	keyToolDigest   = attribute.Key("chainrun.tool.digest")
	keyState        = attribute.Key("chainrun.workflow.state")
	keyTarget       = attribute.Key("chainrun.workflow.target")
	keyTransition   = attribute.Key("chainrun.workflow.transition")
	keyActor        = attribute.Key("chainrun.workflow.actor")
	keyDecidedBy    = attribute.Key("chainrun.workflow.decided_by")
	keyPrincipal    = attribute.Key("chainrun.workflow.principal")
	keyDecisionStat = attribute.Key("chainrun.workflow.decision_status")
)

// providerName is the gen_ai.provider.name of a provider/model label: the
// conventions' well-known values where chainrun's provider is one of
// them, else the provider's name as configured (an OpenAI-type gateway
// keeps its own name).
func providerName(model string) string {
	p, _, _ := strings.Cut(model, "/")
	switch p {
	case "gemini", "google":
		return "gcp.gemini"
	}
	return p
}

// finishReason is a chainrun finish reason in the GenAI conventions'
// words (their output message's finish_reason: stop, length,
// content_filter, tool_call, error); one they have no word for is kept.
func finishReason(r string) string {
	switch r {
	case "tool-call":
		return "tool_call"
	case "content-filter":
		return "content_filter"
	}
	return r
}

// modelName is the model of a provider/model label.
func modelName(model string) string {
	if _, name, ok := strings.Cut(model, "/"); ok {
		return name
	}
	return model
}
