package run

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// TestContenoxTestHooksRun: contenox's echo and print hooks
// (contenox/runtime@457b27a9 localhooks/echo.go EchoHook.Exec, print.go
// Print.Exec; no test of theirs) called by a hook task: echo answers a
// text input with itself and a conversation with "Echo: " and its last
// user message ("nothing to echo" without one); print answers its
// message argument, on a conversation as a system message after it; print
// without a message fails the task, which on_failure catches.
func TestContenoxTestHooksRun(t *testing.T) {
	tests := []struct {
		name, input, first, hook, path, output, last string
	}{
		{"echo of text", "hello there", `"handler":"noop"`, `{"name":"echo"}`, "first→hook→end", "hello there", ""},
		{"echo of a conversation", "What is 2+2?", `"handler":"chat_completion"`, `{"name":"echo"}`, "first→hook→fmt→end", "Echo: What is 2+2?", "assistant"},
		{"echo with tool_name", "line one\nline two", `"handler":"noop"`, `{"name":"echo","tool_name":"echo"}`, "first→hook→end", "line one\nline two", ""},
		{"print of text", "ignored", `"handler":"noop"`, `{"name":"print","args":{"message":"done: 3 files"}}`, "first→hook→end", "done: 3 files", ""},
		{"print on a conversation", "Say hi", `"handler":"chat_completion"`, `{"name":"print","args":{"message":"be brief"}}`, "first→hook→fmt→end", "be brief", "system"},
		{"print without a message", "anything", `"handler":"noop"`, `{"name":"print"}`, "first→hook→caught→end", "anything", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// a conversation's last message is read back through
			// convert_to_openai_chat_response
			next := "end"
			if tt.last != "" {
				next = "fmt"
			}
			src := `{"id":"x","tasks":[{"id":"first",` + tt.first + `,"transition":{"branches":[{"operator":"default","goto":"hook"}]}},
 {"id":"hook","handler":"hook","hook":` + tt.hook + `,"transition":{"on_failure":"caught","branches":[{"operator":"default","goto":"` + next + `"}]}},
 {"id":"fmt","handler":"convert_to_openai_chat_response","input_var":"hook"},
 {"id":"caught","handler":"noop","input_var":"input"}]}`
			l, err := loader.Parse("x.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New(llmtest.Reply{Text: "the model's answer"})
			defer s.Close()
			res, _ := taskRun(t, l.Chain, tt.input, s, "")
			if res.Status != record.Succeeded || path(res) != tt.path {
				t.Fatalf("%s %s %v: %s", res.Status, path(res), res.Output, res.Error)
			}
			if tt.last == "" {
				if res.Output != tt.output {
					t.Errorf("output %#v, want %#v", res.Output, tt.output)
				}
				return
			}
			obj, _ := res.Output.(map[string]any)
			choices, _ := obj["choices"].([]any)
			if len(choices) != 1 {
				t.Fatalf("output %#v", res.Output)
			}
			msg := choices[0].(map[string]any)["message"].(map[string]any)
			if msg["role"] != tt.last || msg["content"] != tt.output {
				t.Errorf("last message %#v, want %s %q", msg, tt.last, tt.output)
			}
		})
	}
}
