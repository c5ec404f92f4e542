package run

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// TestPromptHandlers: prompt_to_string and prompt_to_int, handlers of an
// earlier contenox format (contenox/runtime@4d29195674c3
// taskengine/taskexec.go: HandlePromptToString returns the model's
// answer, HandlePromptToInt parses it as an integer with parseNumber and
// fails when it holds none or a fraction), run as contenox runs them.
func TestPromptHandlers(t *testing.T) {
	branches := `"transition":{"on_failure":"fallback","branches":[{"operator":"range","when":"5,10","goto":"high"},{"operator":"equals","when":"yes","goto":"high"},{"operator":"default","goto":"low"}]}`
	tail := `,{"id":"high","handler":"noop"},{"id":"low","handler":"noop"},{"id":"fallback","handler":"noop","prompt_template":"failed: {{.last_error}}"}]}`
	tests := []struct {
		name, task string
		replies    []string
		path       string
		output     string
		requests   int
	}{
		{"prompt_to_int reads a number in the answer", `"handler":"prompt_to_int"`, []string{"Score: 7"}, "rate→high→end", "7", 1},
		{"prompt_to_int of a quoted number", `"handler":"prompt_to_int"`, []string{` "3" `}, "rate→low→end", "3", 1},
		{"prompt_to_int of no number fails to on_failure", `"handler":"prompt_to_int"`, []string{"seven"}, "rate→fallback→end", `failed: prompt_to_int: the answer "seven" holds no number`, 1},
		{"prompt_to_int of a fraction fails", `"handler":"prompt_to_int"`, []string{"6.5"}, "rate→fallback→end", `failed: prompt_to_int: the answer "6.5" is not an integer`, 1},
		{"prompt_to_int asks again under retry_on_failure", `"handler":"prompt_to_int","retry_on_failure":1`, []string{"no idea", "9"}, "rate→high→end", "9", 2},
		{"prompt_to_string's answer is the result", `"handler":"prompt_to_string"`, []string{"yes"}, "rate→high→end", "yes", 1},
		{"prompt_to_string's answer is the output", `"handler":"prompt_to_string"`, []string{"a haiku"}, "rate→low→end", "a haiku", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `{"id":"p","tasks":[{"id":"rate",` + tt.task + `,"system_instruction":"Answer with a number.","prompt_template":"rate {{.input}}",` + branches + `}` + tail
			l, err := loader.Parse("p.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var replies []llmtest.Reply
			for _, r := range tt.replies {
				replies = append(replies, llmtest.Reply{Text: r})
			}
			s := llmtest.New(replies...)
			defer s.Close()
			res, _ := taskRun(t, l.Chain, "the plan", s, "")
			if res.Status != record.Succeeded || path(res) != tt.path || fmt.Sprint(res.Output) != tt.output {
				t.Fatalf("%s %s %v: %s", res.Status, path(res), res.Output, res.Error)
			}
			if s.Count() != tt.requests {
				t.Errorf("%d requests, want %d", s.Count(), tt.requests)
			}
			if b := body(s.Requests()[0]); !strings.Contains(b, "rate the plan") || !strings.Contains(b, "Answer with a number.") || strings.Contains(b, `"tools"`) {
				t.Errorf("request %s", b)
			}
		})
	}
}
