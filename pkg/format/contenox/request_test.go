package contenox

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestContenoxRequestBody: a file holding a contenox request body
// {input, inputType, chain} (contenox/runtime@7bdaaf86b3 README.md,
// @6c720ae0 docs/hooks.md: the bodies posted to /tasks) is read as its
// chain, its input the default of the chain's input, with a warning; an
// input that is not text is refused.
func TestContenoxRequestBody(t *testing.T) {
	tests := []struct{ src, def, warn, refused string }{
		{src: `{"input":"ping","inputType":"string","chain":{"id":"c","tasks":[{"id":"a","handler":"noop"}]}}`, def: "ping",
			warn: `1:38: warning: a contenox request body (input, inputType, chain): its chain is read, and its input "ping" is the default of input`},
		{src: "chain:\n  id: c\n  tasks:\n    - {id: a, handler: prompt_to_string}\ninput: What is 2+2?\n", def: "What is 2+2?", warn: `its input "What is 2+2?" is the default`},
		{src: `{"chain":{"id":"c","tasks":[{"id":"a","handler":"noop"}]}}`, warn: "its chain is read; give its input with --input input=TEXT"},
		{src: `{"input":[{"role":"user","content":"hi"}],"inputType":"chat_history","chain":{"id":"c","tasks":[{"id":"a","handler":"noop"}]}}`,
			refused: `request body: inputType "chat_history" is not supported: chainrun gives a task chain its input as text`},
		{src: `{"input":{"q":1},"chain":{"id":"c","tasks":[{"id":"a","handler":"noop"}]}}`, refused: "request body: input must be text"},
		{src: `{"input":"x","inputTyp":"string","chain":{"id":"c","tasks":[{"id":"a","handler":"noop"}]}}`, refused: `request body: unknown field "inputTyp" (did you mean inputType?)`},
		{src: `{"input":"x","chain":{"id":"c","tasks":[{"id":"a","handler":"raw_strin"}]}}`, refused: `task "a": handler "raw_strin" is not one chainrun can run`},
	}
	for _, tt := range tests {
		l, err := parseChain("body.json", []byte(tt.src), chain.Options{})
		if tt.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tt.refused) {
				t.Errorf("%s: err = %v, want %q", tt.src, err, tt.refused)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		input := l.Chain.Workflow.InputSchema["properties"].(map[string]any)[InputVar].(map[string]any)
		if tt.def != "" && input["default"] != tt.def || !strings.Contains(warningsOf(l), tt.warn) {
			t.Errorf("%s: input %v, warnings %q", tt.src, input, warningsOf(l))
		}
	}
}
