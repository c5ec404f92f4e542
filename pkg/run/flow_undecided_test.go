package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestUndecidedAgentPausesForAPerson: a model whose answers name no
// transition that can be taken leaves the decision to a person: the run
// pauses at the state with every link (the agent's too), and a warning
// quotes the model's last answer once, on one line, cut short, whatever
// quotes, backslashes and lines it holds.
func TestUndecidedAgentPausesForAPerson(t *testing.T) {
	long := strings.Repeat(`ECHO: \"Workflow w is at review\" \\ `, 40)
	for _, tt := range []struct {
		name    string
		replies []llmtest.Reply
		last    string // the start of the quoted answer
	}{
		{"text that echoes its prompt", []llmtest.Reply{{Text: long}, {Text: long + long}, {Text: "ECHO: \"" + long + "\"\nsecond line"}},
			`its last answer: "ECHO: \"ECHO: \\\"Workflow w is at review\\\" \\\\`},
		{"a tool call naming no link", []llmtest.Reply{
			{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "deploy \"all\""}`}}},
			{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "shipit"}`}}},
			{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "ship\nnow"}`}}}},
			`its last answer: "ship now"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(tt.replies...)
			defer s.Close()
			res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil))).Run(context.Background(),
				Request{Chain: load(t, decisionWorkflow), AgentModel: "openai/m1"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Paused || res.State != "review" || len(res.Links) != 3 || res.Error != "" {
				t.Fatalf("%s at %s, links %v, error %q", res.Status, res.State, res.Links, res.Error)
			}
			if len(res.Warnings) != 1 {
				t.Fatalf("warnings %q", res.Warnings)
			}
			w := res.Warnings[0]
			if !strings.HasPrefix(w, "state review: openai/m1 named no transition that can be taken in 3 answers, so a person decides; ") ||
				!strings.Contains(w, tt.last) || !strings.HasSuffix(w, "(offered: ship, hold)") {
				t.Errorf("warning %q", w)
			}
			if len(w) > 300 || strings.Contains(w, "\n") || strings.Contains(w, `\\\\\\`) {
				t.Errorf("warning of %d bytes, one line: %v, nested escapes: %v", len(w), !strings.Contains(w, "\n"), strings.Contains(w, `\\\\\\`))
			}
		})
	}
}
