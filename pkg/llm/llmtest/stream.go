package llmtest

import (
	"fmt"
	"net/http"
	"unicode/utf8"
)

// interrupt ends a stream early as the reply scripts: an error event
// (written by fail) or a cut. It reports whether the stream must stop.
func (r Reply) interrupt(fail func()) bool {
	if r.StreamError {
		fail()
		return true
	}
	return r.CutStream
}

func anthropicStream(w http.ResponseWriter, model string, reply Reply, req Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	fail := func() { ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`) }
	ev("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":%q,"content":[],"stop_reason":null,"usage":{%s}}}`, model, anthropicUsage(reply, req, 1)))
	index := 0
	if reply.Text != "" || len(reply.ToolCalls) == 0 {
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for _, piece := range pieces(reply.Text) {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}`, jsonString(piece)))
		}
		if len(reply.ToolCalls) == 0 && reply.interrupt(fail) {
			return
		}
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		index++
	}
	for i, c := range reply.ToolCalls {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`, index, jsonString(c.id("toolu_", i)), jsonString(c.Name)))
		for j, piece := range c.argPieces() {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, index, jsonString(piece)))
			if i == 0 && j == 0 && reply.interrupt(fail) {
				return
			}
		}
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index))
		index++
	}
	ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q%s},"usage":{"output_tokens":%d}}`, anthropicStop(reply), anthropicDetails(reply), outputTokens(reply)))
	ev("message_stop", `{"type":"message_stop"}`)
}

func openaiStream(w http.ResponseWriter, model string, reply Reply, req Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	data := func(s string) {
		fmt.Fprintf(w, "data: %s\n\n", s)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	fail := func() { data(`{"error":{"message":"The server had an error","type":"server_error"}}`) }
	first := true
	delta := func(fields string) {
		if first {
			fields, first = `"role":"assistant",`+fields, false
		}
		data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[{"index":0,"delta":{%s},"finish_reason":null}]}`, model, fields))
	}
	for _, piece := range pieces(reply.Text) {
		delta(`"content":` + jsonString(piece))
	}
	for _, piece := range pieces(reply.Refusal) {
		delta(`"content":null,"refusal":` + jsonString(piece))
	}
	if len(reply.ToolCalls) == 0 && reply.interrupt(fail) {
		return
	}
	for i, c := range reply.ToolCalls {
		delta(fmt.Sprintf(`"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":""}}]`, i, jsonString(c.id("call_", i)), jsonString(c.Name)))
		for j, piece := range c.argPieces() {
			delta(fmt.Sprintf(`"tool_calls":[{"index":%d,"function":{"arguments":%s}}]`, i, jsonString(piece)))
			if i == 0 && j == 0 && reply.interrupt(fail) {
				return
			}
		}
	}
	finish := or(reply.Finish, "stop")
	if len(reply.ToolCalls) > 0 {
		finish = or(reply.Finish, "tool_calls")
	}
	data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[{"index":0,"delta":{},"finish_reason":%q}]}`, model, finish))
	data(fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":%q,"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, model, inputTokens(req), outputTokens(reply), inputTokens(req)+outputTokens(reply)))
	data("[DONE]")
}

// pieces splits text into a few stream deltas, never inside a UTF-8
// character.
func pieces(text string) []string {
	var out []string
	for len(text) > 4 {
		n := 4
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}
