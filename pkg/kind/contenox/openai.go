package contenox

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/interp"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/run"
)

// openAIResponse makes a task's input conversation an OpenAI
// chat-completion object, as contenox's convert_to_openai_chat_response
// did for its OpenAI-compatible server: its last message is the one
// choice (finish_reason "tool_calls" with the message's calls, else
// "stop" with its content); the model and token counts are those of the
// model call that wrote it. No model is asked: the id is the run's and
// the task's, created the run's clock, so a run gives the same object
// each time. An input that is no conversation fails, as in contenox.
func openAIResponse(a *run.Attempt, in taskIn) (run.Outcome, error) {
	s := a.Step()
	if len(in.chat) == 0 {
		return run.Outcome{}, run.Permanent(fmt.Errorf("%s: its input is no conversation (the output of a chat_completion task)", cx.HandlerOpenAIResponse))
	}
	last := in.chat[len(in.chat)-1]
	msg := map[string]any{"role": last.Role}
	finish := "stop"
	if len(last.ToolCalls) > 0 {
		finish = "tool_calls"
		calls := make([]any, len(last.ToolCalls))
		for i, c := range last.ToolCalls {
			calls[i] = map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
		}
		msg["tool_calls"] = calls
	} else {
		msg["content"] = last.Content
	}
	var model string
	var prompt, completion int
	for _, m := range in.chat {
		if m.Usage != nil {
			model = m.Model
			prompt, completion = m.Usage.InputTokens, m.Usage.OutputTokens
		}
	}
	obj := map[string]any{
		"id":      "chatcmpl-" + a.RunID() + "-" + s.ID,
		"object":  "chat.completion",
		"created": float64(a.Now().Unix()),
		"model":   model,
		"choices": []any{map[string]any{"index": float64(0), "message": msg, "finish_reason": finish}},
		"usage": map[string]any{"prompt_tokens": float64(prompt), "completion_tokens": float64(completion),
			"total_tokens": float64(prompt + completion)},
	}
	setChat(a, nil)
	return run.Outcome{Value: interp.DataValue(obj), Result: cx.ResultConverted}, nil
}
