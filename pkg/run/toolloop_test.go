package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/tools"
)

var providers = []string{"openai", "anthropic"}

// toolRun runs src (a chain whose agent step uses model PROVIDER/m) in dir
// against a server scripted with replies.
func toolRun(t *testing.T, provider, src, dir string, req Request, replies ...llmtest.Reply) (*record.Result, *llmtest.Server, *event.Recorder) {
	t.Helper()
	s := llmtest.New(replies...)
	t.Cleanup(s.Close)
	rec := &event.Recorder{}
	req.Chain = load(t, strings.ReplaceAll(src, "PROVIDER", provider))
	res, err := New(WithDir(dir), WithModels(registryFor(s, nil)), WithEvents(rec)).Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res, s, rec
}

func call(name, args string) llmtest.Reply {
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: name, Arguments: args}}}
}

func requestText(t *testing.T, s *llmtest.Server, i int) string {
	t.Helper()
	reqs := s.Requests()
	if i >= len(reqs) {
		t.Fatalf("only %d requests", len(reqs))
	}
	return asJSON(t, reqs[i].Body)
}

const readChain = `
name: t
steps:
  - id: look
    model: PROVIDER/m
    prompt: What do the notes say?
    tools: [Read]
    output_var: answer
output: answer
`

func TestToolLoopReadsAFileAndAnswers(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello from the notes\n"), 0o644)
			res, s, rec := toolRun(t, p, readChain, dir, Request{},
				call("Read", `{"file_path": "notes.txt"}`),
				llmtest.Reply{Text: "They say hello."})
			if res.Status != record.Succeeded || res.Output != "They say hello." || res.Steps[0].ToolCalls != 1 || res.Usage.LLMCalls != 2 {
				t.Fatalf("%s %v calls %d usage %+v %s", res.Status, res.Output, res.Steps[0].ToolCalls, res.Usage, res.Error)
			}
			if first := requestText(t, s, 0); !strings.Contains(first, `"file_path"`) || !strings.Contains(first, `"Read"`) {
				t.Errorf("the Read tool was not offered: %s", first)
			}
			if second := requestText(t, s, 1); !strings.Contains(second, "hello from the notes") {
				t.Errorf("the file's text did not go back: %s", second)
			}
			var turns []int
			for _, e := range rec.Events() {
				if e.Type == event.LLMCall {
					turns = append(turns, e.Turn)
				}
				if e.Type == event.ToolCall && (e.Tool != "Read" || e.Status != "ok" || len(e.Digest) != 12 || e.Subject != "notes.txt") {
					t.Errorf("tool event %+v", e)
				}
			}
			if len(turns) != 2 || turns[0] != 1 || turns[1] != 2 {
				t.Errorf("turns %v", turns)
			}
		})
	}
}

func TestToolLoopRunsOneTurnsCallsTogether(t *testing.T) {
	src := `
name: t
steps:
  - {id: both, model: PROVIDER/m, prompt: go, tools: [Bash], output_var: a}
output: a
`
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			dir := t.TempDir()
			// the first call waits for the file the second makes: run one
			// after the other, the first would time out
			res, s, _ := toolRun(t, p, src, dir, Request{},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{
					{Name: "Bash", Arguments: `{"command": "while [ ! -f made ]; do sleep 0.01; done; echo saw it", "timeout_ms": 5000}`},
					{Name: "Bash", Arguments: `{"command": "touch made; echo made it"}`},
				}},
				llmtest.Reply{Text: "done"})
			if res.Status != record.Succeeded || res.Steps[0].ToolCalls != 2 {
				t.Fatalf("%s %s", res.Status, res.Error)
			}
			second := requestText(t, s, 1)
			if !strings.Contains(second, "saw it") || !strings.Contains(second, "made it") {
				t.Errorf("results %s", second)
			}
		})
	}
}

func TestToolCallOutsideTheStepsTools(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			outside := call("Bash", `{"command": "touch ran"}`)
			answer := llmtest.Reply{Text: "ok"}

			dir := t.TempDir()
			res, s, rec := toolRun(t, p, readChain, dir, Request{}, outside, answer)
			if res.Status != record.Succeeded || fileThere(dir, "ran") || res.Steps[0].ToolCalls != 0 {
				t.Fatalf("headless: %s ran=%v", res.Status, fileThere(dir, "ran"))
			}
			if second := requestText(t, s, 1); !strings.Contains(second, "denied: Bash is not among this step's tools") {
				t.Errorf("no denial went back: %s", second)
			}
			if !hasEvent(rec, event.ToolDenied, "headless") {
				t.Error("no denial event")
			}

			dir = t.TempDir()
			res, _, rec = toolRun(t, p, readChain, dir, Request{Grants: map[string]bool{"Bash": true}}, outside, answer)
			if res.Status != record.Succeeded || !fileThere(dir, "ran") || !hasEvent(rec, event.ToolGranted, "grant") {
				t.Fatalf("--grant: %s ran=%v", res.Status, fileThere(dir, "ran"))
			}

			for _, yes := range []bool{true, false} {
				dir = t.TempDir()
				var asked ask.ToolCallRequest
				ask := func(_ context.Context, r ask.ToolCallRequest) (bool, error) { asked = r; return yes, nil }
				res, _, rec = toolRun(t, p, readChain, dir, Request{Ask: ask}, outside, answer)
				want := event.ToolDenied
				if yes {
					want = event.ToolGranted
				}
				if res.Status != record.Succeeded || fileThere(dir, "ran") != yes || !hasEvent(rec, want, "human") || asked.Tool != "Bash" || asked.Digest == "" {
					t.Fatalf("asked (%v): %s ran=%v %+v", yes, res.Status, fileThere(dir, "ran"), asked)
				}
			}
		})
	}
}

func TestToolLoopStopsAtMaxTurns(t *testing.T) {
	src := `
name: t
steps:
  - {id: loop, model: PROVIDER/m, prompt: go, tools: [Glob], max_turns: 3}
`
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			res, s, _ := toolRun(t, p, src, t.TempDir(), Request{}, call("Glob", `{"pattern": "*"}`))
			if res.Status != record.Failed || !strings.Contains(res.Error, "max_turns 3 reached") || s.Count() != 3 {
				t.Fatalf("%s %q after %d requests", res.Status, res.Error, s.Count())
			}
		})
	}
}

func TestCompletionTool(t *testing.T) {
	src := `
name: t
steps:
  - id: plan
    model: PROVIDER/m
    prompt: Plan it
    completion:
      tool: submit_plan
      schema:
        type: object
        required: [steps]
        properties:
          steps: {type: array, items: {type: string}}
    output_var: plan
output: plan
`
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			res, s, _ := toolRun(t, p, src, t.TempDir(), Request{},
				call("submit_plan", `{"steps": "all at once"}`),
				call("submit_plan", `{"steps": ["design", "build"]}`))
			if res.Status != record.Succeeded || asJSON(t, res.Output) != `{"steps":["design","build"]}` {
				t.Fatalf("%s %v %s", res.Status, res.Output, res.Error)
			}
			if second := requestText(t, s, 1); !strings.Contains(second, "do not satisfy its schema") {
				t.Errorf("the schema error did not go back: %s", second)
			}
			if first := requestText(t, s, 0); !strings.Contains(first, "submit_plan") {
				t.Errorf("the completion tool was not offered: %s", first)
			}
		})
	}
}

func TestFileToolsStayInTheStepsDirectory(t *testing.T) {
	src := `
name: t
steps:
  - {id: w, model: PROVIDER/m, prompt: go, tools: [Read, Write], cwd: work}
`
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "work"), 0o755)
			os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("top secret"), 0o644)
			res, s, _ := toolRun(t, p, src, dir, Request{},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{
					{Name: "Read", Arguments: `{"file_path": "../secret.txt"}`},
					{Name: "Write", Arguments: `{"file_path": "../escaped.txt", "content": "x"}`},
					{Name: "Write", Arguments: `{"file_path": "inside.txt", "content": "fine"}`},
				}},
				llmtest.Reply{Text: "done"})
			if res.Status != record.Succeeded {
				t.Fatal(res.Error)
			}
			second := requestText(t, s, 1)
			if strings.Contains(second, "top secret") || fileThere(dir, "escaped.txt") || !fileThere(filepath.Join(dir, "work"), "inside.txt") {
				t.Errorf("confinement broken: %s", second)
			}
			if strings.Count(second, "outside") < 2 {
				t.Errorf("the refusals do not say why: %s", second)
			}
		})
	}
}

func TestChainDefinedTool(t *testing.T) {
	src := `
name: t
tools:
  word_count:
    description: Count the words of a text
    input_schema:
      type: object
      required: [text]
      properties: {text: {type: string}}
    executor: {kind: cli, run: 'printf "%s" {args.text} | wc -w | tr -d " "'}
steps:
  - {id: count, model: PROVIDER/m, prompt: Count, tools: [word_count], output_var: n}
output: n
`
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			res, s, _ := toolRun(t, p, src, t.TempDir(), Request{},
				call("word_count", `{"text": "one two; $(echo three)"}`),
				call("word_count", `{"words": 3}`),
				llmtest.Reply{Text: "4 words"})
			if res.Status != record.Succeeded || res.Output != "4 words" {
				t.Fatalf("%s %v %s", res.Status, res.Output, res.Error)
			}
			// the argument reached the script as a value, never as code
			if second := requestText(t, s, 1); !strings.Contains(second, `"4"`) {
				t.Errorf("the tool's output did not go back: %s", second)
			}
			if third := requestText(t, s, 2); !strings.Contains(third, "do not satisfy word_count's schema") {
				t.Errorf("bad arguments were not refused: %s", third)
			}
		})
	}
}

func TestUnknownToolIsAnErrorResult(t *testing.T) {
	res, s, rec := toolRun(t, "openai", readChain, t.TempDir(), Request{}, call("Teleport", `{}`), llmtest.Reply{Text: "ok"})
	if res.Status != record.Succeeded || !strings.Contains(requestText(t, s, 1), `there is no tool named \"Teleport\"`) || !hasEvent(rec, event.ToolCall, "") {
		t.Fatalf("%s %s", res.Status, requestText(t, s, 1))
	}
}

func fileThere(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

func hasEvent(rec *event.Recorder, typ event.Type, by string) bool {
	for _, e := range rec.Events() {
		if e.Type == typ && (by == "" || e.DecidedBy == by) {
			return true
		}
	}
	return false
}

func TestBuiltinToolNamesAgree(t *testing.T) {
	if strings.Join(chain.BuiltinTools, ",") != strings.Join(tools.Names, ",") {
		t.Fatalf("chain.BuiltinTools %v, tools.Names %v", chain.BuiltinTools, tools.Names)
	}
	for _, name := range tools.Names {
		if _, ok := tools.Lookup(name); !ok {
			t.Errorf("no spec for %s", name)
		}
	}
}

func TestToolLoopStreaming(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("streamed notes\n"), 0o644)
			s := llmtest.New(call("Read", `{"file_path": "notes.txt"}`), llmtest.Reply{Text: "They say streamed notes."})
			defer s.Close()
			res, err := New(WithDir(dir), WithModels(registryFor(s, nil)), WithStreaming(true)).Run(context.Background(),
				Request{Chain: load(t, strings.ReplaceAll(readChain, "PROVIDER", p))})
			if err != nil || res.Status != record.Succeeded || res.Output != "They say streamed notes." || res.Steps[0].ToolCalls != 1 {
				t.Fatalf("%v %s %v", err, res.Status, res.Output)
			}
			if !strings.Contains(requestText(t, s, 0), `"stream":true`) {
				t.Error("the request did not stream")
			}
		})
	}
}

// TestParallelStagesFailFast: agent steps fanned out and joined; a
// failure cancels the siblings unless it says continue_on_error.
func TestParallelStagesFailFast(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.LastUserMessage(), "BROKEN") {
			return llmtest.Reply{Status: 400}
		}
		if strings.Contains(r.LastUserMessage(), "SLOW") {
			return llmtest.Reply{Text: "slow answer", Delay: 3 * time.Second}
		}
		return llmtest.Reply{Text: "quick answer"}
	})
	defer s.Close()
	src := `
name: t
steps:
  - {id: broken, model: openai/m, prompt: BROKEN}
  - {id: slow, model: openai/m, prompt: SLOW}
  - {id: join, type: transform, expr: '"joined"', depends_on: [broken, slow]}
`
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
	byID := map[string]record.StepResult{}
	for _, sr := range res.Steps {
		byID[sr.ID] = sr
	}
	if res.Status != record.Failed || !strings.Contains(byID["slow"].Error, "cancelled: step broken failed") || byID["join"].Status != record.StepSkipped {
		t.Fatalf("strict: %s %+v", res.Status, byID)
	}
	tolerant := strings.Replace(strings.Replace(src, "prompt: BROKEN}", "prompt: BROKEN, continue_on_error: true}", 1), "SLOW", "QUICK", 1)
	res = runChain(t, tolerant, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded {
		t.Fatalf("continue_on_error: %s %s", res.Status, res.Error)
	}
}
