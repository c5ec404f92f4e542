package contenox

import (
	"strings"
	"testing"
)

func TestSelectRoute(t *testing.T) {
	routes := []string{"normal", "abnormal", "urgent"}
	tests := []struct{ answer, want string }{
		{"urgent", "urgent"},
		{"  URGENT\n", "urgent"},
		{"I think this is urgent.", "urgent"},
		// the first label contained wins, as contenox's does (so keep
		// labels distinct)
		{"abnormal", "abnormal"},
		{"quite abnormal", "normal"},
		{"no idea", "no idea"},
	}
	for _, tt := range tests {
		if got := selectRoute(tt.answer, routes); got != tt.want {
			t.Errorf("selectRoute(%q) = %q, want %q", tt.answer, got, tt.want)
		}
	}
}

func TestConversationShapes(t *testing.T) {
	call := func(id string) chatCall { return chatCall{ID: id, Name: "Glob", Arguments: `{}`} }
	chat := []chatMsg{
		{Role: "user", Content: "find"},
		{Role: "assistant", Content: "looking", ToolCalls: []chatCall{call("1"), call("2")}},
		{Role: "user", ToolResults: []chatResult{{CallID: "1", Content: "a.txt"}}},
	}
	at, pending := pendingCalls(chat)
	if at != 1 || len(pending) != 1 || pending[0].ID != "2" {
		t.Fatalf("pending = %d %+v", at, pending)
	}
	answered := answer(append([]chatMsg(nil), chat...), at, []chatResult{{CallID: "2", Content: "b.txt"}})
	if len(answered) != 3 || len(answered[2].ToolResults) != 2 {
		t.Errorf("answer = %s", asJSON(t, answered))
	}
	if _, p := pendingCalls(answered); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	if got := asJSON(t, stripTools(answered)); got != `[{"role":"user","content":"find"},{"role":"assistant","content":"looking"}]` {
		t.Errorf("stripTools = %s", got)
	}
	if back := decodeChat(encodeChat(answered)); asJSON(t, back) != asJSON(t, answered) {
		t.Errorf("a conversation does not survive its saved form: %s", asJSON(t, back))
	}
}

func TestInputMaxBytes(t *testing.T) {
	if got := capText(strings.Repeat("é", 40), 35); len(got) > 35 || !strings.HasSuffix(got, "[… cut to input_max_bytes]") {
		t.Errorf("capText = %q (%d bytes)", got, len(got))
	}
	long := strings.Repeat("x", 100)
	chat := []chatMsg{
		{Role: "user", Content: long},
		{Role: "assistant", ToolCalls: []chatCall{{ID: "1", Name: "Read"}}},
		{Role: "user", ToolResults: []chatResult{{CallID: "1", Content: long}}},
		{Role: "assistant", Content: "the file is all x"},
	}
	if got := capChat(chat, 1000); len(got) != 4 {
		t.Errorf("a conversation under the cap changed: %s", asJSON(t, got))
	}
	// the results whose call was cut off become plain text
	got := capChat(chat, 60)
	if len(got) != 2 || got[0].Role != "user" || len(got[0].ToolResults) != 0 || !strings.Contains(got[0].Content, "xxx") || got[1].Content != "the file is all x" {
		t.Errorf("capChat = %s", asJSON(t, got))
	}
	// a conversation cut to the model's turn begins with a note
	got = capChat(chat, 17)
	if len(got) != 2 || got[0].Content != "[earlier messages cut to input_max_bytes]" {
		t.Errorf("capChat = %s", asJSON(t, got))
	}
}

// TestContenoxSelectRoute: contenox/runtime@7d0a257f42ac
// runtime/taskengine/route_test.go TestUnit_selectRoute: the label an
// answer is (ignoring case and spaces), else the first it contains, else
// the answer.
func TestContenoxSelectRoute(t *testing.T) {
	routes := []string{"code_task", "question", "unsafe"}
	for _, c := range []struct{ answer, want string }{
		{"question", "question"},
		{"  CODE_TASK ", "code_task"},
		{"The label is: unsafe", "unsafe"},
		{"i think this is a question really", "question"},
		{"none of these", "none of these"},
	} {
		if got := selectRoute(c.answer, routes); got != c.want {
			t.Errorf("selectRoute(%q) = %q, want %q", c.answer, got, c.want)
		}
	}
}
