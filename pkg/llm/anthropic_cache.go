package llm

import "encoding/json"

// markCache sets the prompt-cache breakpoints of a Messages request: the
// system prompt, the last tool definition and the last block of the
// transcript, three of the API's four. A tool loop's next request reads
// everything up to its previous breakpoint from the cache (the API looks
// back for an earlier breakpoint's prefix) and writes the turn added.
func markCache(body *anthropicRequest) {
	if s, ok := body.System.(string); ok && s != "" {
		body.System = []map[string]any{{"type": "text", "text": s, "cache_control": ephemeral}}
	}
	if n := len(body.Tools); n > 0 {
		body.Tools[n-1].CacheControl = ephemeral
	}
	if n := len(body.Messages); n > 0 {
		blocks := body.Messages[n-1].Content
		if k := len(blocks); k > 0 {
			blocks[k-1] = withCacheControl(blocks[k-1])
		}
	}
}

// withCacheControl is a content block with a cache breakpoint.
func withCacheControl(block any) any {
	data, err := json.Marshal(block)
	if err != nil {
		return block
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return block
	}
	m["cache_control"] = ephemeral
	return m
}

// asAnswer turns the call of the answer tool (structured output) into the
// answer: its input, as JSON text, is the text.
func asAnswer(r *Response, tool string) {
	for i, c := range r.ToolCalls {
		if c.Name == tool {
			r.Text = c.Arguments
			r.ToolCalls = append(r.ToolCalls[:i:i], r.ToolCalls[i+1:]...)
			if len(r.ToolCalls) == 0 && r.FinishReason == FinishToolCall {
				r.FinishReason = FinishStop
			}
			return
		}
	}
}
