package run

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// TestContenoxOpenAIResponseRuns: contenox's convert_to_openai_chat_response
// (contenox/runtime@9b77c447 runtime/taskengine/taskexec.go its
// HandleConvertToOpenAIChatResponse case, converters.go
// ConvertChatHistoryToOpenAI; apitests/test_execute3.py
// test_convert_to_openai_chat_response_handler and
// test_openaicompletions.py test_openai_sdk_compatibility, which chain it
// after chat_completion) makes the conversation an OpenAI chat-completion
// object: id, object chat.completion, created, the model, one choice of
// the last message (stop and its content, or tool_calls and its calls),
// usage whose total is prompt plus completion; result "converted". An
// input that is no conversation fails the task, which on_failure catches.
func TestContenoxOpenAIResponseRuns(t *testing.T) {
	tests := []struct {
		name, input, first string
		reply              llmtest.Reply
		path, finish       string
		content            any
	}{
		{"an answer", "What is 1+1?", `"handler":"chat_completion"`, llmtest.Reply{Text: "2"}, "chat→fmt→done→end", "stop", "2"},
		{"a longer answer", "Name two colours", `"handler":"chat_completion","system_instruction":"Answer tersely."`,
			llmtest.Reply{Text: "red, blue\nand more"}, "chat→fmt→done→end", "stop", "red, blue\nand more"},
		{"a tool call", "list files", `"handler":"chat_completion","execute_config":{"hooks":["local_fs"]}`,
			llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "local_fs.list_dir", Arguments: `{"path":"."}`}}}, "chat→fmt→done→end", "tool_calls", nil},
		{"no conversation", "plain text", `"handler":"noop"`, llmtest.Reply{Text: "unused"}, "chat→fmt→caught→end", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `{"id":"x","tasks":[{"id":"chat",` + tt.first + `,"transition":{"branches":[{"operator":"default","goto":"fmt"}]}},
 {"id":"fmt","handler":"convert_to_openai_chat_response","transition":{"on_failure":"caught","branches":[{"operator":"equals","when":"converted","goto":"done"},{"operator":"default","goto":"end"}]}},
 {"id":"done","handler":"noop"},{"id":"caught","handler":"noop","input_var":"fmt_error"}]}`
			l, err := loader.Parse("x.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New(tt.reply)
			defer s.Close()
			res, _ := taskRun(t, l.Chain, tt.input, s, "")
			if res.Status != record.Succeeded || path(res) != tt.path {
				t.Fatalf("%s %s %v: %s", res.Status, path(res), res.Output, res.Error)
			}
			if tt.finish == "" {
				if msg, _ := res.Output.(string); msg == "" {
					t.Errorf("no error for an input that is no conversation: %#v", res.Output)
				}
				return
			}
			obj, ok := res.Output.(map[string]any)
			if !ok {
				t.Fatalf("output %#v is no object", res.Output)
			}
			id, _ := obj["id"].(string)
			if len(id) <= len("chatcmpl-") || id[:9] != "chatcmpl-" || obj["object"] != "chat.completion" || obj["model"] != "m" {
				t.Errorf("id %v object %v model %v", obj["id"], obj["object"], obj["model"])
			}
			if c, _ := obj["created"].(float64); c <= 0 {
				t.Errorf("created %v", obj["created"])
			}
			choices, _ := obj["choices"].([]any)
			if len(choices) != 1 {
				t.Fatalf("choices %#v", obj["choices"])
			}
			ch := choices[0].(map[string]any)
			msg := ch["message"].(map[string]any)
			if ch["finish_reason"] != tt.finish || msg["role"] != "assistant" || msg["content"] != tt.content || ch["index"] != float64(0) {
				t.Errorf("choice %#v", ch)
			}
			if calls, _ := msg["tool_calls"].([]any); (tt.finish == "tool_calls") != (len(calls) == 1) {
				t.Errorf("tool_calls %#v", msg["tool_calls"])
			}
			u := obj["usage"].(map[string]any)
			p, c, tot := u["prompt_tokens"].(float64), u["completion_tokens"].(float64), u["total_tokens"].(float64)
			if p <= 0 || tot != p+c {
				t.Errorf("usage %#v", u)
			}
		})
	}
}
