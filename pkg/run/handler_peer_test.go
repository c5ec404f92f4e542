package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// contenoxSrc names the contenox tests the cases below translate: the
// repository github.com/contenox/runtime at commit 7d0a257f42ac, file
// runtime/taskengine/taskenv_test.go. The peer's tests run a mock
// executor; here each task is a real noop or raise_error task that
// produces what the mock returned, and a branch matches "noop", the
// result contenox's own noop handler gives (taskexec.go), where the
// mock's scripted transition value stood.
const contenoxSrc = "contenox/runtime@7d0a257f42ac runtime/taskengine/taskenv_test.go "

// TestContenoxTaskEnvBehaviour: the task engine's behaviour cases of
// contenox, ported one by one; each names its source test.
func TestContenoxTaskEnvBehaviour(t *testing.T) {
	tests := []struct {
		source, src, input string
		status             record.Status
		path, output, err  string
		attempts           int
	}{{
		source: "TestUnit_SimpleEnv_ExecEnv_FailsAfterRetries",
		src:    `{"id":"r","tasks":[{"id":"task1","handler":"raise_error","prompt_template":"Broken task","retry_on_failure":1,"transition":{}}]}`,
		input:  "x", status: record.Failed, err: "failed after 1 retries: Broken task", attempts: 2,
	}, {
		// the same class: any retry count, and the retries end in
		// on_failure when the task has one
		source: "TestUnit_SimpleEnv_ExecEnv_FailsAfterRetries (retry_on_failure 3)",
		src:    `{"id":"r","tasks":[{"id":"t","handler":"raise_error","prompt_template":"no {{.input}}","retry_on_failure":3}]}`,
		input:  "luck", status: record.Failed, err: "failed after 3 retries: no luck", attempts: 4,
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_FailsAfterRetries (then on_failure)",
		src: `{"id":"r","tasks":[{"id":"t","handler":"raise_error","prompt_template":"bad","retry_on_failure":2,"transition":{"on_failure":"fix"}},
 {"id":"fix","handler":"noop","prompt_template":"fixed after {{.t_error}}"}]}`,
		input: "x", status: record.Succeeded, path: "t→fix→end", output: "fixed after bad", attempts: 3,
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_SingleTask",
		src:    `{"id":"s","tasks":[{"id":"task1","handler":"noop","prompt_template":"42","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"}]}}]}`,
		input:  "6 * 7", status: record.Succeeded, path: "task1→end", output: "42", attempts: 1,
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_ErrorTransition",
		src: `{"id":"e","tasks":[{"id":"task1","handler":"raise_error","prompt_template":"fail","transition":{"on_failure":"task2"}},
 {"id":"task2","handler":"noop","prompt_template":"recovered","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"}]}}]}`,
		input: "oops", status: record.Succeeded, path: "task1→task2→end", output: "recovered",
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_ErrorTransitionPreservesTaskInputForNextTask",
		src: `{"id":"p","tasks":[{"id":"classify_request","handler":"raise_error","input_var":"input","transition":{"on_failure":"acp_chat"}},
 {"id":"acp_chat","handler":"noop","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		input: "diagnostic", status: record.Succeeded, path: "classify_request→acp_chat→end", output: "diagnostic",
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_TransitionsToNextTask",
		src: `{"id":"n","tasks":[{"id":"task1","handler":"noop","prompt_template":"continue","transition":{"branches":[{"operator":"equals","when":"noop","goto":"task2"}]}},
 {"id":"task2","handler":"noop","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"}]}}]}`,
		input: "test", status: record.Succeeded, path: "task1→task2→end", output: "continue",
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_InputVar_OriginalInput",
		src:    `{"id":"o","tasks":[{"id":"task1","handler":"noop","input_var":"input","prompt_template":"processed: {{.input}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		input:  "hello", status: record.Succeeded, path: "task1→end", output: "processed: hello",
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_InputVar_PreviousTaskOutput",
		src: `{"id":"v","tasks":[{"id":"transform","handler":"noop","prompt_template":"42","transition":{"branches":[{"operator":"default","goto":"process"}]}},
 {"id":"process","handler":"noop","input_var":"transform","prompt_template":"processed: {{.transform}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		input: "forty-two", status: record.Succeeded, path: "transform→process→end", output: "processed: 42",
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_InputVar_BranchRouting",
		src: `{"id":"b","tasks":[{"id":"moderate","handler":"noop","prompt_template":"store","transition":{"branches":[{"operator":"equals","when":"noop","goto":"store"},{"operator":"default","goto":"reject"}]}},
 {"id":"store","handler":"noop","input_var":"input","transition":{"branches":[{"operator":"default","goto":"end"}]}},
 {"id":"reject","handler":"noop","prompt_template":"Rejected: {{.input}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		input: "safe message", status: record.Succeeded, path: "moderate→store→end", output: "safe message",
	}}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			t.Logf("source: %s%s", contenoxSrc, tt.source)
			l, err := loader.Parse("c.json", []byte(tt.src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New()
			defer s.Close()
			res, _ := taskRun(t, l.Chain, tt.input, s, "")
			if res.Status != tt.status || path(res) != tt.path && tt.path != "" || !strings.Contains(res.Error, tt.err) {
				t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
			}
			if tt.output != "" && res.Output != tt.output {
				t.Errorf("output %q, want %q", res.Output, tt.output)
			}
			if tt.attempts > 0 && res.Steps[0].Attempts != tt.attempts {
				t.Errorf("attempts %d, want %d", res.Steps[0].Attempts, tt.attempts)
			}
		})
	}
}

// TestTaskChainOlderNamesHoldModelCalls: hooks and hook_policies, the
// names of an earlier contenox format (contenox/runtime@4d29195674c3
// taskengine/tasktype.go), offer the tools and hold the model's Bash
// calls as tools and tools_policies do; the branch written with
// reference 003's spelling tool-call is taken when the model asks for a
// tool.
func TestTaskChainOlderNamesHoldModelCalls(t *testing.T) {
	src := `{"id":"sh","tasks":[
 {"id":"ask","handler":"chat_completion","execute_config":{"hooks":["local_shell"],"hook_policies":{"local_shell":{"_allowed_commands":"printf","_denied_commands":"mkdir"}}},
  "transition":{"branches":[{"operator":"equals","when":"tool-call","goto":"run"},{"operator":"default","goto":"end"}]}},
 {"id":"run","handler":"execute_tool_calls","input_var":"ask","execute_config":{"hooks":["local_shell"]},
  "transition":{"branches":[{"operator":"default","goto":"ask"}]}}]}`
	for _, tc := range []struct {
		command, said string
		ran           bool
	}{{"mkdir made", `"mkdir" is denied`, false}, {"touch made", `"touch" is not among the allowed commands`, false}, {"printf x > made", "", true}} {
		l, err := loader.Parse("sh.json", []byte(src), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(map[string]string{"command": tc.command})
		s := llmtest.New(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: string(args)}}}, llmtest.Reply{Text: "done"})
		dir := t.TempDir()
		res, _ := taskRun(t, l.Chain, "go", s, dir)
		s.Close()
		if res.Status != record.Succeeded {
			t.Fatalf("%s: %s", res.Status, res.Error)
		}
		if _, err := os.Stat(filepath.Join(dir, "made")); (err == nil) != tc.ran {
			t.Errorf("%s: ran = %v, want %v", tc.command, err == nil, tc.ran)
		}
		if !tc.ran && !strings.Contains(body(s.Requests()[1]), strings.ReplaceAll(tc.said, `"`, `\"`)) {
			t.Errorf("%s: the model was not told %s: %s", tc.command, tc.said, body(s.Requests()[1]))
		}
	}
}

// TestTaskChainOlderHookHandlerRuns: a task of the older handler hook
// (contenox/runtime@4d29195674c3 taskengine/taskexec.go, HandleHook) runs
// as a tools task: its hook: call, its output_template.
func TestTaskChainOlderHookHandlerRuns(t *testing.T) {
	src := `{"id":"h","tasks":[{"id":"say","handler":"hook","hook":{"name":"local_shell","tool_name":"local_shell","args":{"command":"printf hello"}},
  "transition":{"branches":[{"operator":"equals","when":"tools_executed","goto":"end"}]}}]}`
	l, err := loader.Parse("h.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New()
	defer s.Close()
	res, _ := taskRun(t, l.Chain, "", s, "")
	if res.Status != record.Succeeded || path(res) != "say→end" || !strings.Contains(fmt.Sprint(res.Output), "hello") {
		t.Fatalf("%s %s %q: %s", res.Status, path(res), res.Output, res.Error)
	}
}

// TestContenoxEdgeBudgets: contenox/runtime@7d0a257f42ac
// runtime/taskengine/edge_count_test.go
// TestUnit_EdgeTraversedAtLeast_BoundsCyclicWorkflow: a loop bounded by
// edge_traversed_at_least 3 on chat->run_tools runs chat 4 times,
// run_tools 3 times and the summariser once, the budget branch winning
// over the loop's own; and dsl_contract_test.go
// TestUnit_EmptyBranches_CleanEnd: a task with no branches ends the
// chain. The peer's mock scripts the loop's results; here the tasks are
// noops, whose result is always "noop".
func TestContenoxEdgeBudgets(t *testing.T) {
	src := `{"id":"loop","tasks":[
 {"id":"chat","handler":"noop","transition":{"branches":[
   {"operator":"edge_traversed_at_least","edge":"chat->run_tools","when":"3","goto":"summariser"},
   {"operator":"equals","when":"noop","goto":"run_tools"}]}},
 {"id":"run_tools","handler":"noop","transition":{"branches":[{"operator":"default","goto":"chat"}]}},
 {"id":"summariser","handler":"noop","transition":{"branches":[]}}]}`
	l, err := loader.Parse("loop.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New()
	defer s.Close()
	res, _ := taskRun(t, l.Chain, "go", s, "")
	want := "chat→run_tools→chat→run_tools→chat→run_tools→chat→summariser→end"
	if res.Status != record.Succeeded || path(res) != want {
		t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
	}
}

// TestContenoxCapsFailureInput: contenox/runtime@7d0a257f42ac
// runtime/taskengine/taskenv_test.go
// TestUnit_SimpleEnv_ExecEnv_CapsInputForFailureSummaryTask: the task
// on_failure leads to reads the failed task's input, cut to its
// input_max_bytes and marked as cut (contenox's mark reads "truncated
// original_bytes=", chainrun's "cut to input_max_bytes").
func TestContenoxCapsFailureInput(t *testing.T) {
	src := `{"id":"c","tasks":[{"id":"main","handler":"raise_error","input_var":"input","transition":{"on_failure":"summarise_failure"}},
 {"id":"summarise_failure","handler":"noop","input_max_bytes":64,"transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	l, err := loader.Parse("c.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New()
	defer s.Close()
	long := strings.Repeat("oversized ", 200)
	res, _ := taskRun(t, l.Chain, long, s, "")
	out := fmt.Sprint(res.Output)
	if res.Status != record.Succeeded || path(res) != "main→summarise_failure→end" {
		t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
	}
	if len(out) > 64 || !strings.HasPrefix(out, "oversized") || !strings.Contains(out, "cut to input_max_bytes") {
		t.Errorf("output %q (%d bytes)", out, len(out))
	}
}

// TestContenoxEdgeCountMacro: contenox/runtime@7d0a257f42ac
// runtime/taskengine/step_macros_test.go
// TestUnit_StepMacro_EdgeCountGrowsAcrossLoopIterations and
// TestUnit_StepMacro_UnknownEdgeIsZero: {{edge_count:a->b}} is read each
// time the task runs, so it grows with the loop; an edge never taken
// reads 0. The peer watches the system instruction its mock sees; here
// the task's print shows the count.
func TestContenoxEdgeCountMacro(t *testing.T) {
	src := `{"id":"m","tasks":[
 {"id":"chat","handler":"noop","print":"round {{edge_count:chat->run_tools}} never {{edge_count:chat->chat}}","transition":{"branches":[
   {"operator":"edge_traversed_at_least","edge":"chat->run_tools","when":"2","goto":"end"},
   {"operator":"equals","when":"noop","goto":"run_tools"}]}},
 {"id":"run_tools","handler":"noop","transition":{"branches":[{"operator":"default","goto":"chat"}]}}]}`
	l, err := loader.Parse("m.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New()
	defer s.Close()
	res, events := taskRun(t, l.Chain, "go", s, "")
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	var printed []string
	for _, e := range events {
		if e.Type == event.StepLog && e.Stream == "print" {
			printed = append(printed, e.Line)
		}
	}
	if want := []string{"round 0 never 0", "round 1 never 0", "round 2 never 0"}; !slices.Equal(printed, want) {
		t.Errorf("printed %q, want %q", printed, want)
	}
}
