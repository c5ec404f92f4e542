package run

import (
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// Task chains of earlier versions of contenox's format
// (pkg/format/contenox/testdata/contenox-history; README.md there names each
// file's commit and path) run as contenox ran them: the older names read
// as the newer do the same work.

// historyChain loads a file of testdata/contenox-history, beside
// contenoxChain's directory.
func historyChain(t *testing.T, name string) *chain.Chain {
	t.Helper()
	return contenoxChain(t, "../contenox-history/"+name)
}

// TestContenoxHistoryRuns: the local_exec chain of 2026-02-14 and its
// local_shell successor of 2026-02-15 run echo with their args, no model
// asked; qa-ollama asks the model once; chain-vibes' model calls the
// shell through local_exec, the older name, and is answered.
func TestContenoxHistoryRuns(t *testing.T) {
	for file, want := range map[string]string{
		"chain-local-exec-2026-02-14.json": "hello from local_exec",
		"chain-local-exec-2026-02-15.json": "hello from local_shell",
	} {
		t.Run(file, func(t *testing.T) {
			s := llmtest.New(llmtest.Reply{Status: 500})
			defer s.Close()
			res, _ := taskRun(t, historyChain(t, file), "", s, "")
			if res.Status != record.Succeeded || path(res) != "run_echo→end" || strings.TrimSpace(res.Output.(string)) != want {
				t.Fatalf("%s %s %q: %s", res.Status, path(res), res.Output, res.Error)
			}
			if n := len(s.Requests()); n != 0 {
				t.Errorf("%d model requests", n)
			}
		})
	}
	t.Run("qa-ollama-2026-02-14.json", func(t *testing.T) {
		s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "answer to: " + r.LastUserMessage()} })
		defer s.Close()
		res, _ := taskRun(t, historyChain(t, "qa-ollama-2026-02-14.json"), "2+2?", s, "")
		if res.Status != record.Succeeded || res.Output != "answer to: 2+2?" {
			t.Fatalf("%s %v: %s", res.Status, res.Output, res.Error)
		}
	})
	t.Run("chain-vibes-2026-02-14.json", func(t *testing.T) {
		var mu sync.Mutex
		calls := 0
		s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
			mu.Lock()
			defer mu.Unlock()
			if calls++; calls == 1 {
				return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: `{"command": "echo vibes-ran"}`}}}
			}
			return llmtest.Reply{Text: "listed"}
		})
		defer s.Close()
		res, _ := taskRun(t, historyChain(t, "chain-vibes-2026-02-14.json"), "say vibes", s, "")
		if res.Status != record.Succeeded || path(res) != "vibe_chat→run_tools→vibe_chat→end" {
			t.Fatalf("%s %s %v: %s", res.Status, path(res), res.Output, res.Error)
		}
		reqs := s.Requests()
		if got := offeredTools(reqs[0]); len(got) != 1 || got[0] != "Bash" {
			t.Errorf("offered %v", got)
		}
		if b := body(reqs[0]); !strings.Contains(b, `Available hooks and tools: {\"local_shell\":[\"Bash\"]}`) || reqs[0].Body["model"] != "qwen2.5:7b" {
			t.Errorf("first request %s", b)
		}
		if b := body(reqs[1]); !strings.Contains(b, "vibes-ran") {
			t.Errorf("the tool's answer is not in the second request: %s", b)
		}
	})
}

// TestOlderHandlersRun: a chain of contenox's first format
// (contenox/runtime@7bdaaf86b3 taskengine/taskexec.go: raw_string,
// parse_number, model_execution) runs as prompt_to_string, prompt_to_int
// and chat_completion: parse_number's number takes the > branch, as
// contenox's did.
func TestOlderHandlersRun(t *testing.T) {
	src := `{"id":"early","tasks":[
 {"id":"rate","type":"parse_number","system_instruction":"Rate 1-10.","prompt_template":"{{.input}}",
  "transition":{"on_failure_alert":"rating failed","branches":[{"operator":">","when":"6","goto":"reject","alert_on_match":"too risky"},{"operator":"default","goto":"reply"}]}},
 {"id":"reply","handler":"model_execution","input_var":"input"},
 {"id":"reject","handler":"raw_string","prompt_template":"Refuse politely: {{.input}}"}]}`
	for _, tt := range []struct{ score, path, output string }{
		{"8", "rate→reject→end", "answer to: Refuse politely: drop the table"},
		{" 3 ", "rate→reply→end", "answer to: drop the table"},
		{"\"7\"", "rate→reject→end", "answer to: Refuse politely: drop the table"},
	} {
		t.Run(tt.score, func(t *testing.T) {
			l, err := loader.Parse("early.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				if strings.Contains(body(r), "Rate 1-10.") {
					return llmtest.Reply{Text: tt.score}
				}
				return llmtest.Reply{Text: "answer to: " + r.LastUserMessage()}
			})
			defer s.Close()
			res, _ := taskRun(t, l.Chain, "drop the table", s, "")
			if res.Status != record.Succeeded || path(res) != tt.path || res.Output != tt.output {
				t.Fatalf("%s %s %v: %s", res.Status, path(res), res.Output, res.Error)
			}
		})
	}
}

// TestOlderToolsResultRuns: a hook task of contenox before 2026-06-01
// branching on its success, "ok" (contenox/runtime@6852e592
// internal/contenoxcli/chain-step-summarizer.json's persist task), takes
// that branch.
func TestOlderToolsResultRuns(t *testing.T) {
	src := `{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"local_shell","args":{"command":"echo saved"}},
  "transition":{"branches":[{"operator":"equals","when":"ok","goto":"done"},{"operator":"default","goto":"end"}]}},
 {"id":"done","handler":"noop"}]}`
	l, err := loader.Parse("x.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New(llmtest.Reply{Status: 500})
	defer s.Close()
	res, _ := taskRun(t, l.Chain, "", s, "")
	if res.Status != record.Succeeded || path(res) != "a→done→end" || strings.TrimSpace(res.Output.(string)) != "saved" {
		t.Fatalf("%s %s %v: %s", res.Status, path(res), res.Output, res.Error)
	}
}

// TestContenoxRequestBodyRuns: a contenox request body runs its chain on
// the body's input, or on the input the run is given.
func TestContenoxRequestBodyRuns(t *testing.T) {
	src := `{"input":"ping","inputType":"string","chain":{"id":"relay","tasks":[{"id":"a","handler":"noop","transition":{"branches":[{"operator":"default","goto":"b"}]}},{"id":"b","handler":"noop"}]}}`
	for input, want := range map[string]string{"": "ping", "pong": "pong"} {
		l, err := loader.Parse("body.json", []byte(src), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := llmtest.New(llmtest.Reply{Status: 500})
		res, _ := taskRun(t, l.Chain, input, s, "")
		s.Close()
		if res.Status != record.Succeeded || path(res) != "a→b→end" || res.Output != want {
			t.Errorf("input %q: %s %s %v: %s", input, res.Status, path(res), res.Output, res.Error)
		}
	}
}
