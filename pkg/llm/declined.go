package llm

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Finish reasons of an answer that is not one: the model declined the
// question. They are never a Response's FinishReason; a declined answer
// is an *Error whose Declined names one of them.
const (
	// FinishRefusal is a model's refusal: OpenAI's message.refusal (or
	// delta.refusal in a stream), Anthropic's stop_reason "refusal".
	FinishRefusal = "refusal"
	// FinishContentFilter is an answer stopped by the provider's content
	// filter: OpenAI's (and Azure's) finish_reason "content_filter".
	FinishContentFilter = "content-filter"
)

// refused is a model's refusal as a failure: said names what it said
// (its refusal text, or the provider's explanation), which the error
// carries so that whoever reads the step's failure sees why.
func refused(provider, said string, usage Usage) (*Response, error) {
	msg := "the model refused to answer"
	if said = strings.TrimSpace(said); said != "" {
		msg += ": " + clip(said, 500)
	} else {
		msg += " (it gave no reason)"
	}
	return &Response{FinishReason: FinishRefusal, Usage: usage},
		&Error{Provider: provider, Declined: FinishRefusal, Message: msg}
}

// filtered is an answer stopped by the provider's content filter as a
// failure. Its partial text is not quoted: it is what the filter held
// back.
func filtered(provider, partial string, usage Usage) (*Response, error) {
	msg := "the provider's content filter stopped the answer"
	if n := utf8.RuneCountInString(partial); n > 0 {
		msg += fmt.Sprintf(" after %d characters", n)
	}
	return &Response{FinishReason: FinishContentFilter, Usage: usage},
		&Error{Provider: provider, Declined: FinishContentFilter, Message: msg + " (finish_reason content_filter)"}
}

// cutOff is an answer cut at the request's max tokens as a failure, for a
// caller that does not branch on the finish reason: the part of an answer
// would be taken for the whole. The error names the cap and what to do.
func cutOff(provider string, maxTokens int) error {
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	return &Error{Provider: provider, Declined: FinishLength,
		Message: fmt.Sprintf("the answer was cut off at max_tokens %d (finish reason length): raise max_tokens, or ask for a shorter answer", maxTokens)}
}

// DeclinedReason is FinishRefusal, FinishContentFilter or FinishLength
// when err is a model that gave no answer (it declined the question, or
// was cut off), else "".
func DeclinedReason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Declined
	}
	return ""
}
