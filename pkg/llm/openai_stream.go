package llm

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// stream gathers a Chat Completions stream into answer, handing text to
// onDelta as it arrives. Tool calls are joined from their pieces by
// index; usage comes in the last chunk (stream_options.include_usage).
func (o *OpenAI) stream(resp *http.Response, answer *openaiResponse, onDelta func(string)) error {
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	var text, refusal strings.Builder
	calls := map[int]*openaiToolCall{}
	args := map[int]*strings.Builder{}
	finish := ""
	for ev := range r.events() {
		if string(ev.data) == "[DONE]" {
			break
		}
		var chunk openaiResponse
		if err := json.Unmarshal(ev.data, &chunk); err != nil {
			return malformed(o.name, "a stream chunk: "+err.Error())
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
			return streamError(o.name, ev.data)
		}
		if chunk.Model != "" {
			answer.Model = chunk.Model
		}
		if chunk.Usage != nil {
			answer.Usage = chunk.Usage
		}
		for _, c := range chunk.Choices {
			if c.Index != 0 {
				continue
			}
			if c.Delta.Content != nil && *c.Delta.Content != "" {
				text.WriteString(*c.Delta.Content)
				onDelta(*c.Delta.Content)
			}
			if c.Delta.Refusal != nil {
				refusal.WriteString(*c.Delta.Refusal)
			}
			for i, tc := range c.Delta.ToolCalls {
				at := i
				if tc.Index != nil {
					at = *tc.Index
				}
				call := calls[at]
				if call == nil {
					call, args[at] = &openaiToolCall{}, &strings.Builder{}
					calls[at] = call
				}
				if call.ID == "" {
					call.ID = tc.ID
				}
				if call.Function.Name == "" {
					call.Function.Name = tc.Function.Name
				}
				args[at].WriteString(tc.Function.Arguments)
			}
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
		}
	}
	if r.err != nil {
		return errorFrom(o.name, r.err)
	}
	if finish == "" {
		return &Error{Provider: o.name, Transient: true, Message: "the stream ended before the answer was complete"}
	}
	content := text.String()
	said := refusal.String()
	choice := openaiChoice{FinishReason: finish, Message: openaiAnswer{Content: &content, Refusal: &said}}
	for _, i := range slices.Sorted(maps.Keys(calls)) {
		call := *calls[i]
		call.Function.Arguments = args[i].String()
		choice.Message.ToolCalls = append(choice.Message.ToolCalls, call)
	}
	answer.Choices = []openaiChoice{choice}
	return nil
}
