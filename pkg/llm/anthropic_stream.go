package llm

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// The events of a Messages stream that carry the answer; ping and any
// event type the API adds later are skipped.
type anthropicEvent struct {
	Type    string            `json:"type"`
	Index   int               `json:"index"`
	Message anthropicResponse `json:"message"`
	Block   anthropicBlock    `json:"content_block"`
	Delta   struct {
		Type        string                `json:"type"`
		Text        string                `json:"text"`
		PartialJSON string                `json:"partial_json"`
		StopReason  string                `json:"stop_reason"`
		StopDetails *anthropicStopDetails `json:"stop_details"`
	} `json:"delta"`
	Usage anthropicUsage `json:"usage"`
}

// stream gathers a Messages stream into msg, handing text to onDelta as
// it arrives. Tool inputs are joined from their pieces as sent: a garbled
// one stays garbled, and toolCall reports it.
func (a *Anthropic) stream(resp *http.Response, msg *anthropicResponse, onDelta func(string)) error {
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	blocks := map[int]*anthropicBlock{}
	inputs := map[int]*strings.Builder{}
	for ev := range r.events() {
		if ev.name == "error" {
			return streamError(a.name, ev.data)
		}
		var e anthropicEvent
		if err := json.Unmarshal(ev.data, &e); err != nil {
			return malformed(a.name, "a stream event: "+err.Error())
		}
		switch e.Type {
		case "message_start":
			msg.Model, msg.Usage = e.Message.Model, e.Message.Usage
		case "content_block_start":
			b := e.Block
			b.Input = nil // the start holds an empty input; the deltas hold it whole
			blocks[e.Index] = &b
		case "content_block_delta":
			b := blocks[e.Index]
			if b == nil {
				return malformed(a.name, "a delta for a content block that never started")
			}
			switch e.Delta.Type {
			case "text_delta":
				b.Text += e.Delta.Text
				if e.Delta.Text != "" {
					onDelta(e.Delta.Text)
				}
			case "input_json_delta":
				if inputs[e.Index] == nil {
					inputs[e.Index] = &strings.Builder{}
				}
				inputs[e.Index].WriteString(e.Delta.PartialJSON)
			}
		case "message_delta":
			msg.StopReason, msg.StopDetails = e.Delta.StopReason, e.Delta.StopDetails
			msg.Usage.OutputTokens = e.Usage.OutputTokens
			if e.Usage.CacheCreationInputTokens > 0 || e.Usage.CacheReadInputTokens > 0 {
				msg.Usage.CacheCreationInputTokens, msg.Usage.CacheReadInputTokens = e.Usage.CacheCreationInputTokens, e.Usage.CacheReadInputTokens
			}
			if e.Usage.InputTokens > 0 {
				msg.Usage.InputTokens = e.Usage.InputTokens
			}
		case "message_stop":
			if msg.StopReason == "" {
				break
			}
			a.gather(msg, blocks, inputs)
			return nil
		case "error":
			return streamError(a.name, ev.data)
		}
	}
	if r.err != nil {
		return errorFrom(a.name, r.err)
	}
	if msg.StopReason != "" {
		// message_delta said how the answer ended: only message_stop,
		// which carries nothing, is missing.
		a.gather(msg, blocks, inputs)
		return nil
	}
	return &Error{Provider: a.name, Transient: true, Message: "the stream ended before the answer was complete"}
}

// gather puts a stream's content blocks into msg in their order.
func (a *Anthropic) gather(msg *anthropicResponse, blocks map[int]*anthropicBlock, inputs map[int]*strings.Builder) {
	for _, i := range slices.Sorted(maps.Keys(blocks)) {
		b := *blocks[i]
		if in := inputs[i]; in != nil {
			b.Input = json.RawMessage(in.String())
		}
		msg.Content = append(msg.Content, b)
	}
}
