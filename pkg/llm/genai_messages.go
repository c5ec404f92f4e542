package llm

import "encoding/json"

// The shape of messages in the OpenTelemetry GenAI semantic conventions
// (gen_ai.input.messages, gen_ai.output.messages): a role and a list of
// parts, each text, a tool call or a tool call's response. Traces show a
// request's messages this way when the user asks for them.
type genaiMessage struct {
	Role         string      `json:"role"`
	Parts        []genaiPart `json:"parts"`
	FinishReason string      `json:"finish_reason,omitempty"`
}

type genaiPart struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  string          `json:"response,omitempty"`
}

// InputMessages is req's system prompt and messages as the GenAI
// conventions' gen_ai.input.messages: JSON text.
func InputMessages(req *Request) string {
	if req == nil {
		return ""
	}
	var out []genaiMessage
	if req.System != "" {
		out = append(out, genaiMessage{Role: "system", Parts: []genaiPart{{Type: "text", Content: req.System}}})
	}
	for _, m := range req.Messages {
		gm := genaiMessage{Role: string(m.Role), Parts: []genaiPart{}}
		if m.Content != "" {
			gm.Parts = append(gm.Parts, genaiPart{Type: "text", Content: m.Content})
		}
		gm.Parts = append(gm.Parts, callParts(m.ToolCalls)...)
		for _, r := range m.ToolResults {
			gm.Parts = append(gm.Parts, genaiPart{Type: "tool_call_response", ID: r.CallID, Response: r.Content})
		}
		out = append(out, gm)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// OutputMessages is resp as gen_ai.output.messages: JSON text.
func OutputMessages(resp *Response) string {
	if resp == nil {
		return ""
	}
	gm := genaiMessage{Role: "assistant", Parts: []genaiPart{}, FinishReason: genaiFinish(resp.FinishReason)}
	if resp.Text != "" {
		gm.Parts = append(gm.Parts, genaiPart{Type: "text", Content: resp.Text})
	}
	gm.Parts = append(gm.Parts, callParts(resp.ToolCalls)...)
	b, _ := json.Marshal([]genaiMessage{gm})
	return string(b)
}

func callParts(calls []ToolCall) []genaiPart {
	var parts []genaiPart
	for _, c := range calls {
		p := genaiPart{Type: "tool_call", ID: c.ID, Name: c.Name}
		if json.Valid([]byte(c.Arguments)) {
			p.Arguments = json.RawMessage(c.Arguments)
		} else if c.Arguments != "" {
			p.Arguments, _ = json.Marshal(c.Arguments)
		}
		parts = append(parts, p)
	}
	return parts
}

// genaiFinish is a finish reason in the GenAI conventions' words (stop,
// length, content_filter, tool_call, error); one they lack is kept.
func genaiFinish(r string) string {
	switch r {
	case FinishToolCall:
		return "tool_call"
	case FinishContentFilter:
		return "content_filter"
	}
	return r
}
