package contenox

import (
	"errors"

	"github.com/chainrun/chainrun/pkg/run"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/llm"
)

// testHook runs contenox's echo and print hooks (contenox/runtime@457b27a9
// localhooks/echo.go, print.go) for a tools task: no tool runs. echo
// answers its input; a conversation gets an assistant message "Echo: "
// and its last user message ("nothing to echo" without one). print
// answers its message argument; a conversation gets it as a system
// message; without the argument the task fails, as in contenox. The
// answer is the output, the conversation (when the input had one)
// behind it.
func testHook(h *cx.Handler, in taskIn) (any, []chatMsg, error) {
	var reply chatMsg
	switch h.Hook {
	case cx.HookEcho:
		if in.chat == nil {
			return in.value.Text, nil, nil
		}
		said := ""
		for i := len(in.chat) - 1; i >= 0 && said == ""; i-- {
			if in.chat[i].Role == string(llm.User) {
				said = in.chat[i].Content
			}
		}
		if said == "" {
			said = "nothing to echo"
		}
		reply = chatMsg{Role: string(llm.Assistant), Content: "Echo: " + said}
	default:
		msg, ok := h.Args["message"]
		if !ok {
			return nil, nil, run.Permanent(errors.New("the print hook needs a message argument (hook: {name: print, args: {message: TEXT}})"))
		}
		if in.chat == nil {
			return msg, nil, nil
		}
		reply = chatMsg{Role: "system", Content: msg}
	}
	return reply.Content, append(append([]chatMsg{}, in.chat...), reply), nil
}
