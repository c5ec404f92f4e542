package contenox

import (
	"errors"
	"strings"

	"github.com/chainrun/chainrun/pkg/llm"
)

// A model whose server will not take tools is asked again without them,
// as contenox does: this file tells such a failure and takes the tool
// protocol out of the conversation.

// toolsRefused reports whether a model call failed because the model's
// server will not take tools: a model without tool support (Ollama's "does
// not support tools", llama.cpp's "unsupported feature: tool calls", a
// chat template without tools) or a tool schema it cannot convert. Such a
// failure is permanent, and the same question without tools may succeed.
func toolsRefused(err error) bool {
	var e *llm.Error
	if !errors.As(err, &e) || e.Transient || e.NotSent || e.Declined != "" {
		return false
	}
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "does not support tools") ||
		strings.Contains(m, "unsupported feature") && strings.Contains(m, "tool call") ||
		strings.Contains(m, "chat template") && strings.Contains(m, "tool") ||
		strings.Contains(m, "json schema conversion failed") || strings.Contains(m, "unrecognized schema")
}

// stripTools takes the tool protocol out of a conversation, for a model
// offered no tools (both APIs refuse tool calls and results then): the
// results go, the calls go, and an assistant message left empty goes.
func stripTools(chat []chatMsg) []chatMsg {
	var out []chatMsg
	for _, m := range chat {
		if len(m.ToolResults) > 0 && strings.TrimSpace(m.Content) == "" {
			continue
		}
		had := len(m.ToolCalls) > 0
		m.ToolCalls, m.ToolResults = nil, nil
		if had && strings.TrimSpace(m.Content) == "" {
			continue
		}
		out = append(out, m)
	}
	return out
}
