package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Tool is a function the model may call. It is how a model picks among
// fixed options (an enum argument) and how an agent acts.
type Tool struct {
	// Name is how the model calls it; both APIs want [a-zA-Z0-9_-]{1,64}.
	Name        string
	Description string
	// Schema is the JSON Schema of the arguments: an object schema.
	Schema map[string]any
}

// ToolCall is one call the model asked for.
type ToolCall struct {
	// ID pairs the call with its ToolResult in the next turn.
	ID   string
	Name string
	// Arguments is the JSON object the model sent, as text.
	Arguments string
}

// ToolResult answers one ToolCall in the next user turn.
type ToolResult struct {
	// CallID is the ID of the ToolCall answered.
	CallID  string
	Content string
	// IsError tells the model the tool failed and Content says why, so
	// that it may try another way. Chat Completions has no such flag:
	// there Content is sent prefixed with "Error: ".
	IsError bool
}

// ToolChoiceRequired is the Request.ToolChoice that makes the model call
// one of the tools, whichever it likes. A tool named "required" cannot be
// forced by name.
const ToolChoiceRequired = "required"

// checkTools refuses, before anything is sent, what the provider would
// refuse on every attempt: a ToolChoice that names no tool of the request,
// and a replayed call whose arguments are not a JSON object (the Messages
// API carries them as JSON, so they could not even be encoded).
func checkTools(provider string, req Request) error {
	refuse := func(format string, args ...any) error {
		return &Error{Provider: provider, NotSent: true, Message: fmt.Sprintf(format, args...)}
	}
	for i, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if !isObject(orEmptyObject(c.Arguments)) {
				return refuse("message %d: the arguments of tool call %q are not a JSON object: %s", i+1, c.Name, clip(c.Arguments, 60))
			}
		}
	}
	switch {
	case req.ToolChoice == "":
		return nil
	case len(req.Tools) == 0:
		return refuse("tool choice %q without any tools", req.ToolChoice)
	case req.ToolChoice == ToolChoiceRequired, slices.ContainsFunc(req.Tools, func(t Tool) bool { return t.Name == req.ToolChoice }):
		return nil
	}
	return refuse("tool choice %q names none of the request's tools", req.ToolChoice)
}

// toolCall checks one call of an answer. Arguments that are not a JSON
// object are a garbled answer, transient like a malformed body; none at
// all mean a call without arguments. A missing ID (some OpenAI-compatible
// servers send none) is made from the call's position, so that its
// result can still be paired with it.
func toolCall(provider string, i int, id, name, args string, finish string) (ToolCall, error) {
	if id == "" {
		id = "call_" + strconv.Itoa(i+1)
	}
	if name == "" {
		return ToolCall{}, &Error{Provider: provider, Transient: true, Message: fmt.Sprintf("malformed response: tool call %d has no name", i+1)}
	}
	if t := bytes.TrimSpace([]byte(args)); len(t) == 0 || string(t) == "null" {
		// no arguments: an empty object, which a schema then judges
		return ToolCall{ID: id, Name: name, Arguments: "{}"}, nil
	}
	if !isObject(args) {
		msg := fmt.Sprintf("malformed response: the arguments of tool call %q are not a JSON object: %s", name, clip(args, 60))
		if finish == FinishLength {
			msg += " (the answer was cut at max tokens)"
		}
		return ToolCall{}, &Error{Provider: provider, Transient: true, Message: msg}
	}
	return ToolCall{ID: id, Name: name, Arguments: args}, nil
}

// toolFinish makes FinishReason FinishToolCall whenever the answer holds
// calls, as some OpenAI-compatible servers (older Ollama) say "stop".
func toolFinish(finish string, calls []ToolCall) string {
	if len(calls) > 0 && finish == FinishStop {
		return FinishToolCall
	}
	return finish
}

// isObject reports whether s is one JSON object.
func isObject(s string) bool {
	b := bytes.TrimSpace([]byte(s))
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// orEmptyObject is a call's arguments as JSON, {} when there are none.
func orEmptyObject(args string) string {
	if len(bytes.TrimSpace([]byte(args))) == 0 {
		return "{}"
	}
	return args
}

// clip shortens s to about n bytes for a message, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// unoffered is the error of an answer that asks for a tool when the
// request offered none: nothing can run it, and taking the answer would
// pass off its preamble (or nothing) as the step's output. It is a
// malformed answer, asked again as one is.
func unoffered(provider string, req Request, r *Response) error {
	if r == nil || len(r.ToolCalls) == 0 || len(req.Tools) > 0 {
		return nil
	}
	return malformed(provider, fmt.Sprintf("the model asked for tool %q, but the request offered no tools", r.ToolCalls[0].Name))
}
