package contenox

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
)

// failureInput is what a failed task leaves as its output for the task
// its failure leads to: its input, as contenox leaves it, unless that input
// holds nothing to report from (blank text, or a conversation of nothing
// but tool results). Then a recovery model task would be asked about
// nothing, so a note naming the failed task and its error is put in its
// place (a conversation gets it as a user message), as contenox's
// ensureFailureContext does.
func failureInput(task string, in taskIn, err error) taskIn {
	note := fmt.Sprintf("Task %q failed, and nothing of what it was given is left to go on. Its error was:\n\n%s\n\nSay that the task failed, quote the error, and say what would let the work go on.", task, err)
	if len(in.chat) > 0 {
		for _, m := range in.chat {
			if m.Role != "system" && (strings.TrimSpace(m.Content) != "" || len(m.ToolCalls) > 0) {
				return in
			}
		}
		chat := append(append([]chatMsg(nil), in.chat...), chatMsg{Role: "user", Content: note})
		return taskIn{value: in.value, chat: chat}
	}
	if d, text := in.value.Data.(string); in.value.Data != nil && (!text || strings.TrimSpace(d) != "") || strings.TrimSpace(in.value.Text) != "" {
		return in
	}
	return taskIn{value: interp.TextValue(note)}
}
