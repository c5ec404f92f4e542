package contenox

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestContenoxHistoryFiles: task chains of earlier versions of
// contenox's format (testdata/contenox-history, README.md there names
// each file's commit and path) load with a warning at each older name, or
// are refused (exit 2) naming what chainrun lacks and why; never a
// silent difference.
func TestContenoxHistoryFiles(t *testing.T) {
	tests := []struct {
		file string
		// refused is what the refusal says ("" when the file loads);
		// warns are what the warnings of a file that loads say.
		refused string
		warns   []string
	}{
		// contenox read JSON leniently then: systemInstruction was dropped
		// unseen; chainrun names it
		{file: "readme-2025-08-09-smart-query.json", refused: `unknown field "systemInstruction" (did you mean system_instruction?)`},
		{file: "hooks-2025-08-22-ping-pong.json", refused: `tool hook "ping-pong" is not supported (ping-pong is no hook contenox built in: a remote hook or MCP server registered with a contenox server`},
		{file: "chain-local-exec-2026-02-14.json", warns: []string{
			"hook local_exec is the older name of local_shell",
			`tools.args: args, shell, cwd and timeout are contenox's local_shell arguments: read as the command "echo hello from local_exec"`,
			"handler hook is the older name of tools"}},
		{file: "chain-vibes-2026-02-14.json", warns: []string{
			"execute_config: hook local_exec is the older name of local_shell",
			"execute_config: hooks is the older name of tools",
			"macro {{hookservice:list}}: hookservice is the older name of toolservice",
			`when "tool-call" is the older spelling of "tool_call"`}},
		{file: "qa-ollama-2026-02-14.json", warns: []string{"token_limit is not applied"}},
		{file: "chain-local-exec-2026-02-15.json", warns: []string{`read as the command "echo hello from local_shell"`}},
		{file: "default-chain-2026-02-15.json", refused: `tool hook "js_execution" is not supported (js_execution is running JavaScript in contenox's sandbox`},
		{file: "chain-nws-2026-03-01.json", refused: `tool hook "nws" is not supported (nws is the US National Weather Service API`},
		{file: "chain-planner-2026-03-01.json", warns: []string{"execute_config: hooks is the older name of tools"}},
		{file: "release-notes-2026-03-07.json", refused: `output_template reads .Stdout of the record contenox's local_shell answers`},
		{file: "simple-chat-with-moderation-2026-03-08.json", refused: `compose.strategy "append_string_to_chat_history" (with_var "input") is not supported: it is an earlier contenox strategy that merged the variable input into the task's output`},
		{file: "chain-step-executor-2026-03-14.json", warns: []string{"hook_policies is the older name of tools_policies"}},
		{file: "chain-step-summarizer-2026-04-13.json", refused: `input_var "__exec_terminal__" is not supported: it is a placeholder of contenox's plan compiler`},
		{file: "chain-contenox-2026-04-14.json", refused: `execute_config: compact_policy is not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, err := loadFile("testdata/contenox-history/"+tt.file, chain.Options{})
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("does not load: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Fatalf("err = %v, want %q", err, tt.refused)
			case err != nil:
				return
			}
			all := warningsOf(l)
			for _, w := range tt.warns {
				if !strings.Contains(all, w) {
					t.Errorf("diagnostics %q, want %q", all, w)
				}
			}
		})
	}
}
