package mcpserver

import (
	"bytes"
	"encoding/json"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Refused is the status of a call that changed nothing because it could
// not start (an unknown chain, bad inputs, an unknown run): its error
// says why and its links how to go on.
const Refused = "refused"

// Running is the status of a run still going when its call returned (the
// soft deadline passed, or the client stopped waiting).
const Running = "running"

// Response is what every run tool answers: reference 000's response with
// the run's id, its version and its status. The model reads the context
// and guidance, and calls one of the links.
type Response struct {
	RunID string `json:"run_id"`
	// Version grows each time the run moves (a transition taken, a step
	// finished); take_transition's expected_version must match it.
	Version int `json:"version"`
	// Status is running, paused, succeeded, failed, interrupted,
	// cancelled or refused.
	Status string `json:"status"`
	// Name is the chain's name.
	Name  string `json:"name,omitempty"`
	State string `json:"state,omitempty"`
	// Outcome is what the terminal state reached declares (failed,
	// cancelled), when it declares one.
	Outcome string `json:"outcome,omitempty"`
	// Chain traces the transitions this call took on its own.
	Chain    []response.ChainEntry `json:"chain"`
	Context  map[string]any        `json:"context,omitempty"`
	Guidance *response.Guidance    `json:"guidance,omitempty"`
	// Links are what may be done next, each a tool call ready to make.
	Links []Link `json:"links"`
	// Output is a succeeded run's output.
	Output   any      `json:"output,omitempty"`
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Usage is the run's model use and its cost (cost_usd, and the
	// models with no known price), when it asked any model.
	Usage *record.Usage `json:"usage,omitempty"`
}

// Link is one thing the model may do next: a transition to take (or a
// failed one to retry), or a run to look at again, with the tool to call
// and its arguments.
type Link struct {
	Transition string `json:"transition,omitempty"`
	Title      string `json:"title"`
	// Actor is who the transition waits for: agent or human.
	Actor string `json:"actor,omitempty"`
	// Blocked says why a listed transition cannot be taken now.
	Blocked string `json:"blocked,omitempty"`
	// Needs are the arguments the transition cannot be taken without:
	// the link's arguments hold a placeholder for each (<string>), to be
	// replaced with a value (a placeholder left as it is is refused).
	Needs     []chain.NeededArg `json:"required_arguments,omitempty"`
	Tool      string            `json:"tool"`
	Arguments map[string]any    `json:"arguments"`
}

// fromResult is the response of a run's result at version v.
func fromResult(res *record.Result, v int) Response {
	r := Response{RunID: res.RunID, Version: v, Status: string(res.Status), Name: res.Name, Error: res.Error,
		Warnings: res.Warnings, Chain: []response.ChainEntry{}, Links: []Link{}}
	if res.Status == record.Succeeded {
		r.Output = res.Output
	}
	if u := res.Usage; u.LLMCalls > 0 || u.Cached > 0 || len(u.Unpriced) > 0 {
		r.Usage = &u
	}
	if wr := res.WorkflowResult; wr != nil {
		r.State, r.Outcome, r.Context, r.Guidance = wr.State, wr.Outcome, wr.Context, wr.Guidance
		if wr.Chain != nil {
			r.Chain = wr.Chain
		}
		for _, l := range wr.Links {
			r.Links = append(r.Links, takeLink(res.RunID, v, l))
		}
	}
	if len(r.Links) == 0 && (res.Status == record.Failed || res.Status == record.Interrupted) {
		r.Links = append(r.Links, Link{Title: "Resume the run where it stopped", Tool: toolTake,
			Arguments: map[string]any{"run_id": res.RunID, "expected_version": v}})
	}
	return r
}

// takeLink is the take_transition call that takes l.
func takeLink(id string, v int, l response.Link) Link {
	link := Link{Transition: l.Transition, Title: l.Title, Actor: l.Actor, Blocked: l.Blocked, Tool: toolTake,
		Arguments: map[string]any{"run_id": id, "transition": l.Transition, "expected_version": v}}
	if len(l.Acknowledge) > 0 {
		// its guards wait for these: read them in guidance.acknowledge
		link.Arguments["acknowledge"] = l.Acknowledge
	}
	if len(l.Args) > 0 {
		link.Needs = l.Args
		args := map[string]any{}
		for _, a := range l.Args {
			args[a.Name] = a.PlaceholderValue()
		}
		link.Arguments["arguments"] = args
	}
	if l.Rerun {
		// the step may have done its work: the take confirms it runs again
		link.Arguments["rerun"] = []string{l.Transition}
	}
	return link
}

// getLink looks at run id again.
func getLink(id string) Link {
	return Link{Title: "See how the run stands", Tool: toolGet, Arguments: map[string]any{"run_id": id}}
}

// listLink lists the chains.
func listLink() Link {
	return Link{Title: "List the chains and their inputs", Tool: toolList, Arguments: map[string]any{}}
}

// refused is the response of a call that could not start.
func refused(msg string, links ...Link) Response {
	return Response{Status: Refused, Error: msg, Chain: []response.ChainEntry{}, Links: links}
}

// toolResult turns a response into the tool's result: structured
// content, the same JSON as text for clients that read only text, and
// isError when the call or the run failed.
func toolResult(v any, isError bool) *mcp.CallToolResult {
	// <, > and & as they are: a model reading the text reads
	// "<string>", not "\u003cstring\u003e"
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if err != nil {
		data = []byte(`{"error":"the response cannot be written as JSON"}`)
		isError = true
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data), IsError: isError}
}

// answer is the tool result of a response.
func answer(r Response) *mcp.CallToolResult {
	return toolResult(r, r.Error != "" || r.Status == Refused)
}

// outputSchema is the JSON Schema of T, for a tool's output schema.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcpserver: output schema: " + err.Error()) // a bug of this package's types
	}
	describeAny(s)
	return s
}

// describeAny gives every schema that takes any value (a Go any, which
// jsonschema-go writes as the schema true) a description, so it is
// written as an object: the official TypeScript client refuses a
// property whose schema is a boolean.
func describeAny(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		if p == nil {
			continue
		}
		if b, err := json.Marshal(p); err == nil && string(b) == "true" {
			p.Description = "any JSON value"
			continue
		}
		describeAny(p)
	}
	if s.Items != nil {
		describeAny(s.Items)
	}
}
