package llm

import "testing"

func TestGenAIMessages(t *testing.T) {
	req := &Request{System: "be brief", Messages: []Message{
		{Role: User, Content: "read a.txt"},
		{Role: Assistant, ToolCalls: []ToolCall{{ID: "c1", Name: "Read", Arguments: `{"path":"a.txt"}`}, {ID: "c2", Name: "Bad", Arguments: "not json"}}},
		{Role: User, ToolResults: []ToolResult{{CallID: "c1", Content: "hello"}}},
	}}
	want := `[{"role":"system","parts":[{"type":"text","content":"be brief"}]},` +
		`{"role":"user","parts":[{"type":"text","content":"read a.txt"}]},` +
		`{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"Read","arguments":{"path":"a.txt"}},{"type":"tool_call","id":"c2","name":"Bad","arguments":"not json"}]},` +
		`{"role":"user","parts":[{"type":"tool_call_response","id":"c1","response":"hello"}]}]`
	if got := InputMessages(req); got != want {
		t.Errorf("input:\n got %s\nwant %s", got, want)
	}
	out := OutputMessages(&Response{Text: "done", FinishReason: FinishStop})
	if out != `[{"role":"assistant","parts":[{"type":"text","content":"done"}],"finish_reason":"stop"}]` {
		t.Errorf("output: %s", out)
	}
	if InputMessages(nil) != "" || OutputMessages(nil) != "" {
		t.Error("nothing asked, nothing shown")
	}
}
