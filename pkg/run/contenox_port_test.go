package run

import (
	"context"
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

// The cases below translate contenox's task-engine tests that
// TestContenoxTaskEnvBehaviour (handler_peer_test.go) does not: each
// names its source, the repository, the commit, the file and the test.
// contenox's tests script a mock executor's results; here a noop or
// raise_error task gives what the mock gave, and where the result itself
// must vary (a loop that ends), a route task's answer, scripted on the
// fake model server, is the result.

// portCase is one contenox test run as a chain.
type portCase struct {
	source, src, input string
	replies            []llmtest.Reply
	status             record.Status
	path, output       string
	errHas, errHasNot  []string
	printed            []string
}

// runPort runs one case and checks what the case pins.
func runPort(t *testing.T, tt portCase) {
	t.Helper()
	t.Logf("source: %s", tt.source)
	l, err := loader.Parse("c.json", []byte(tt.src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New(tt.replies...)
	defer s.Close()
	res, events := taskRun(t, l.Chain, tt.input, s, "")
	if res.Status != tt.status || tt.path != "" && path(res) != tt.path {
		t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
	}
	out := fmt.Sprint(res.Output)
	if _, text := res.Output.(string); !text && res.Output != nil {
		out = asJSON(t, res.Output) // a JSON output, as JSON
	}
	if tt.output != "" && out != tt.output {
		t.Errorf("output %q, want %q", out, tt.output)
	}
	for _, w := range tt.errHas {
		if !strings.Contains(res.Error, w) {
			t.Errorf("error %q does not say %q", res.Error, w)
		}
	}
	for _, w := range tt.errHasNot {
		if strings.Contains(res.Error, w) {
			t.Errorf("error %q says %q", res.Error, w)
		}
	}
	if tt.printed != nil {
		var printed []string
		for _, e := range events {
			if e.Type == event.StepLog && e.Stream == "print" {
				printed = append(printed, e.Line)
			}
		}
		if !slices.Equal(printed, tt.printed) {
			t.Errorf("printed %q, want %q", printed, tt.printed)
		}
	}
}

// TestContenoxTransitionPorts: transitions, input_var, print and error
// transitions of contenox's taskenv_test.go and edge_count_test.go.
func TestContenoxTransitionPorts(t *testing.T) {
	label := func(s ...string) []llmtest.Reply {
		var out []llmtest.Reply
		for _, x := range s {
			out = append(out, llmtest.Reply{Text: x})
		}
		return out
	}
	// the loop of edge_count_test.go: a route task answers tool_call or
	// done; a budget of N on chat->run_tools.
	loop := func(budget string) string {
		return `{"id":"loop","tasks":[
 {"id":"chat","handler":"route","transition":{"branches":[
   {"operator":"edge_traversed_at_least","edge":"chat->run_tools","when":"` + budget + `","goto":"summariser"},
   {"operator":"equals","when":"tool_call","goto":"run_tools"},
   {"operator":"default","goto":"end"}]}},
 {"id":"run_tools","handler":"noop","transition":{"branches":[{"operator":"default","goto":"chat"}]}},
 {"id":"summariser","handler":"noop","prompt_template":"summarised","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	}
	// the moderation chain of the older taskenv_test.go: a rating above
	// 5 stores the original input, else it is rejected
	moderate := func(op string) string {
		return `{"id":"m","tasks":[{"id":"moderate","handler":"prompt_to_int","prompt_template":"Rate safety of: {{.input}}","transition":{"branches":[{"operator":"` + op + `","when":"5","goto":"store"},{"operator":"default","goto":"reject"}]}},
 {"id":"store","handler":"noop","input_var":"input","transition":{"branches":[{"operator":"default","goto":"end"}]}},
 {"id":"reject","handler":"noop","prompt_template":"Rejected: {{.input}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	}
	tests := []portCase{{
		source:  "contenox/runtime@1ce113c29b92 runtime/taskengine/edge_count_test.go TestUnit_EdgeTraversedAtLeast_DoesNotFireBelowThreshold",
		src:     loop("10"),
		replies: label("tool_call", "tool_call", "done"),
		input:   "go", status: record.Succeeded, path: "chat→run_tools→chat→run_tools→chat→end", output: "go",
	}, {
		// the same class: one below the budget does not fire, the budget
		// itself does
		source:  "TestUnit_EdgeTraversedAtLeast_DoesNotFireBelowThreshold (budget 3, two rounds)",
		src:     loop("3"),
		replies: label("tool_call", "TOOL_CALL", "finished"),
		input:   "go", status: record.Succeeded, path: "chat→run_tools→chat→run_tools→chat→end",
	}, {
		source:  "TestUnit_EdgeTraversedAtLeast_DoesNotFireBelowThreshold (budget 2 reached)",
		src:     loop("2"),
		replies: label("tool_call", "tool_call", "tool_call"),
		input:   "go", status: record.Succeeded, path: "chat→run_tools→chat→run_tools→chat→summariser→end", output: "summarised",
	}, {
		source: "contenox/runtime@12f9dda1ab07 runtime/taskengine/taskenv_test.go TestUnit_SimpleEnv_ExecEnv_PrintTemplate",
		src:    `{"id":"p","tasks":[{"id":"task1","handler":"noop","prompt_template":"hi {{.input}}","print":"Output: {{.task1}}","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"}]}}]}`,
		// contenox renders print before it stores the task's output
		// (taskenv.go's renderTemplate: "a task's Print that references
		// its own id ... renders <no value>"); the test pins the result
		input: "user", status: record.Succeeded, path: "task1→end", output: "hi user", printed: []string{"Output: <no value>"},
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_PrintTemplate (print of an earlier task and the input, in a later one)",
		src: `{"id":"p","tasks":[{"id":"a","handler":"noop","prompt_template":"A({{.input}})","print":"a: {{.a}}","transition":{"branches":[{"operator":"default","goto":"b"}]}},
 {"id":"b","handler":"noop","prompt_template":"B","print":"b saw {{.a}} ({{.previous_output}}) from {{.input}}, made {{.b}}"}]}`,
		input: "x", status: record.Succeeded, path: "a→b→end", output: "B", printed: []string{"a: <no value>", "b saw A(x) (A(x)) from x, made <no value>"},
	}, {
		source: "contenox/runtime@12f9dda1ab07 runtime/taskengine/taskenv_test.go TestUnit_SimpleEnv_ExecEnv_InputVar_DefaultBehavior",
		src: `{"id":"d","tasks":[{"id":"task1","handler":"noop","prompt_template":"First: {{.input}}","transition":{"branches":[{"operator":"default","goto":"task2"}]}},
 {"id":"task2","handler":"noop","prompt_template":"Second: {{.task1}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		input: "input", status: record.Succeeded, path: "task1→task2→end", output: "Second: First: input",
	}, {
		// without a prompt_template, the task's input is what the task
		// before it gave
		source: "TestUnit_SimpleEnv_ExecEnv_InputVar_DefaultBehavior (no template)",
		src: `{"id":"d","tasks":[{"id":"task1","handler":"noop","prompt_template":"first {{.input}}","transition":{"branches":[{"operator":"default","goto":"task2"}]}},
 {"id":"task2","handler":"noop","transition":{"branches":[{"operator":"default","goto":"task3"}]}},
 {"id":"task3","handler":"noop"}]}`,
		input: "in", status: record.Succeeded, path: "task1→task2→task3→end", output: "first in",
	}, {
		source:  "contenox/runtime@" + cxOldCore + " taskengine/taskenv_test.go TestUnit_SimpleEnv_ExecEnv_InputVar_WithModeration",
		src:     moderate(">"),
		replies: label("8"),
		input:   "safe message", status: record.Succeeded, path: "moderate→store→end", output: "safe message",
	}, {
		source:  "TestUnit_SimpleEnv_ExecEnv_InputVar_WithModeration (rated unsafe)",
		src:     moderate("gt"),
		replies: label("\"5\""),
		input:   "rude message", status: record.Succeeded, path: "moderate→reject→end", output: "Rejected: rude message",
	}, {
		source: "contenox/contenox@2f653670f782 internal/kernel/taskengine/taskenv_test.go TestUnit_SimpleEnv_ExecEnv_FailureHandlerFailureLeadsWithRootError",
		src: `{"id":"f","tasks":[{"id":"main","handler":"raise_error","prompt_template":"stream failed: 404","transition":{"on_failure":"summarise_failure"}},
 {"id":"summarise_failure","handler":"raise_error","prompt_template":"summariser also down","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		input: "input", status: record.Failed,
		errHas: []string{"main", "stream failed: 404", "on_failure", "summarise_failure", "summariser also down"},
	}, {
		source: "TestUnit_SimpleEnv_ExecEnv_FailureHandlerFailureLeadsWithRootError (after retries)",
		src: `{"id":"f","tasks":[{"id":"fetch","handler":"raise_error","prompt_template":"no route to {{.input}}","retry_on_failure":1,"transition":{"on_failure":"explain"}},
 {"id":"explain","handler":"raise_error","prompt_template":"explainer broke on {{.last_error}}"}]}`,
		input: "host", status: record.Failed,
		errHas: []string{"fetch", "failed after 1 retries: no route to host", "explain", "explainer broke on no route to host"},
	}, {
		source: "contenox/contenox@2f653670f782 internal/kernel/taskengine/taskenv_test.go TestUnit_SimpleEnv_ExecEnv_RecoveredFailureDoesNotTaintLaterFailure",
		src: `{"id":"r","tasks":[{"id":"main","handler":"raise_error","prompt_template":"recovered failure","transition":{"on_failure":"recover"}},
 {"id":"recover","handler":"noop","prompt_template":"recovered","transition":{"branches":[{"operator":"default","goto":"later"}]}},
 {"id":"later","handler":"raise_error","prompt_template":"later failure"}]}`,
		input: "input", status: record.Failed, path: "main→recover→later",
		errHas: []string{"later", "later failure"}, errHasNot: []string{"recovered failure", "main", "on_failure"},
	}, {
		// contenox refuses this chain when it loads; chainrun decides it
		// when the task runs: text holds no calls, the result is noop
		source: "contenox/contenox@2f653670f782 internal/kernel/taskengine/chainlint_test.go TestUnit_LintChain_ImpossibleEdgeIsLoadError",
		src: `{"id":"i","tasks":[{"id":"extract","handler":"noop","transition":{"branches":[{"operator":"equals","when":"noop","goto":"summarize"}]}},
 {"id":"summarize","handler":"execute_tool_calls","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"},{"operator":"default","goto":"extract"}]}}]}`,
		input: "plain text", status: record.Succeeded, path: "extract→summarize→end", output: "plain text",
	}, {
		source: "contenox/contenox@2f653670f782 internal/kernel/taskengine/chainlint_test.go TestUnit_LintChain_OutputTemplateNarrowsToolsToString",
		src: `{"id":"o","tasks":[{"id":"fetch","handler":"tools","tools":{"name":"local_shell","tool_name":"local_shell","args":{"command":"printf up"}},"output_template":"status: {{.}}","transition":{"branches":[{"operator":"default","goto":"digest"}]}},
 {"id":"digest","handler":"execute_tool_calls","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"},{"operator":"default","goto":"fetch"}]}}]}`,
		status: record.Succeeded, path: "fetch→digest→end",
	}}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) { runPort(t, tt) })
	}
}

// cxOldCore is the last contenox commit whose taskengine/ was at the
// repository's top (before it moved under runtime/).
const cxOldCore = "c8da426eda8f"

// TestContenoxCancelledRun: contenox/runtime@12f9dda1ab07
// runtime/taskengine/taskenv_test.go
// TestUnit_SimpleEnv_ExecEnv_UsesParentCancellation: a run whose caller
// has cancelled runs no task and says it was cancelled.
func TestContenoxCancelledRun(t *testing.T) {
	l, err := loader.Parse("c.json", []byte(`{"id":"c","tasks":[{"id":"task1","handler":"noop","prompt_template":"What is {{.input}}?","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := New(WithDir(t.TempDir())).Run(ctx, Request{Chain: l.Chain, Inputs: map[string]string{"input": "6 * 7"}})
	if err != nil {
		t.Fatal(err)
	}
	// contenox's error wraps context.Canceled; chainrun's run is
	// interrupted, and task1 never ran
	if res.Status != record.Interrupted || res.Output == "What is 6 * 7?" || len(res.Chain) != 0 {
		t.Fatalf("%s %v %s: %s", res.Status, res.Output, path(res), res.Error)
	}
	for _, sr := range res.Steps {
		if sr.Status == record.StepSucceeded {
			t.Errorf("%s ran", sr.ID)
		}
	}
}

// toolScope runs contenox's execute_tool_scope_test.go chain shape: a
// chat task offering local_fs and local_shell asks for one call; an
// execute_tool_calls task with the execute_config given runs it. It
// returns the run, whether the call ran, and what the model was told.
func toolScope(t *testing.T, execConfig, tool, args string) (*record.Result, bool, string) {
	t.Helper()
	ec := ""
	if execConfig != "" {
		ec = `"execute_config":` + execConfig + `,`
	}
	src := `{"id":"scope","tasks":[
 {"id":"chat","handler":"chat_completion","execute_config":{"tools":["local_fs","local_shell"]},
  "transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"exec"},{"operator":"default","goto":"end"}]}},
 {"id":"exec","handler":"execute_tool_calls","input_var":"chat",` + ec + `
  "transition":{"branches":[{"operator":"default","goto":"chat"}]}}]}`
	l, err := loader.Parse("scope.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := llmtest.New(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "call-1", Name: tool, Arguments: args}}}, llmtest.Reply{Text: "done"})
	defer s.Close()
	res, events := taskRun(t, l.Chain, "go", s, dir)
	ran := false
	for _, e := range events {
		ran = ran || e.Type == event.ToolCall && e.Tool == tool && e.Status == event.OK
	}
	told := ""
	if len(s.Requests()) > 1 {
		msgs, _ := s.Requests()[1].Body["messages"].([]any)
		if len(msgs) > 0 {
			told = asJSON(t, msgs[len(msgs)-1])
		}
	}
	return res, ran, told
}

// TestContenoxExecuteToolScope: contenox/runtime@a8addee76a11
// runtime/taskengine/execute_tool_scope_test.go. The execute_tool_calls
// task's tools and hide_tools decide which calls it runs; a call outside
// them is not run, and the model is told so in the answer to that call.
// A task that writes no tools runs those of every model task (contenox's
// nil scope); tools: [] runs none.
// contenox's tools are named hook.tool (local_fs.read_file); chainrun's
// are Read, Write, Bash, so the unqualified-leaf case
// (TestUnit_ExecuteToolCalls_UnqualifiedUniqueLeafResolves) has no
// counterpart: every chainrun tool has one name.
func TestContenoxExecuteToolScope(t *testing.T) {
	read := `{"file_path":"notes.txt"}`
	write := `{"file_path":"made.txt","content":"x"}`
	bash := `{"command":"printf hi"}`
	// contenox tells the model "not allowed" or "hidden"; chainrun says
	// the tool is not among the step's tools and was not run (a --grant
	// would allow it, as for any step)
	const denied = "is not among this step's tools"
	tests := []struct {
		source, config, tool, args string
		ran                        bool
		told                       string
	}{
		{"TestUnit_ExecuteToolCalls_ExplicitToolsScope_AllowsProvider", `{"tools":["local_fs"]}`, "Read", read, true, "kept"},
		{"TestUnit_ExecuteToolCalls_ExplicitToolsScope_AllowsProvider (local_shell)", `{"tools":["local_shell"]}`, "Bash", bash, true, "hi"},
		{"TestUnit_ExecuteToolCalls_ExplicitToolsScope_BlocksProviderOutsideScope", `{"tools":["local_fs"]}`, "Bash", bash, false, denied},
		{"TestUnit_ExecuteToolCalls_ExplicitToolsScope_BlocksProviderOutsideScope (local_fs)", `{"tools":["local_shell"]}`, "Write", write, false, denied},
		{"TestUnit_ExecuteToolCalls_HideTools_BlocksNamespacedTool", `{"tools":["local_fs"],"hide_tools":["Write"]}`, "Write", write, false, denied},
		{"TestUnit_ExecuteToolCalls_HideTools_BlocksNamespacedTool (Read)", `{"tools":["*"],"hide_tools":["Read"]}`, "Read", read, false, denied},
		{"TestUnit_ExecuteToolCalls_ExplicitEmptyToolsScope_BlocksAllRegistryTools", `{"tools":[]}`, "Read", read, false, denied},
		{"TestUnit_ExecuteToolCalls_ExplicitEmptyToolsScope_BlocksAllRegistryTools (Bash)", `{"tools":[]}`, "Bash", bash, false, denied},
		{"TestUnit_ExecuteToolCalls_NilToolsScope_PreservesLegacyExecution", ``, "Bash", bash, true, "hi"},
		{"TestUnit_ExecuteToolCalls_NilToolsScope_PreservesLegacyExecution (Read)", `{}`, "Read", read, true, "kept"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			res, ran, told := toolScope(t, tt.config, tt.tool, tt.args)
			if res.Status != record.Succeeded || path(res) != "chat→exec→chat→end" {
				t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
			}
			if ran != tt.ran || !strings.Contains(told, tt.told) || !strings.Contains(told, "call-1") {
				t.Errorf("ran %v (want %v); the model was told: %s", ran, tt.ran, told)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir("."), "made.txt")); err == nil {
				t.Error("made.txt was written")
			}
		})
	}
}

// TestContenoxToolErrorStaysSoft: contenox/runtime@a8addee76a11
// runtime/taskengine/toolcancel_test.go
// TestUnit_ExecuteToolCalls_OrdinaryToolErrorStaysSoft: a tool that
// fails is answered with its error, and the task and the chain go on,
// so the model can react.
func TestContenoxToolErrorStaysSoft(t *testing.T) {
	for _, call := range []struct{ tool, args, said string }{
		{"Read", `{"file_path":"missing.txt"}`, "missing.txt"},
		{"Bash", `{"command":"exit 3"}`, "3"},
		{"Edit", `{"file_path":"nowhere.txt","old_string":"a","new_string":"b"}`, "nowhere.txt"},
	} {
		res, _, told := toolScope(t, `{"tools":["*"]}`, call.tool, call.args)
		if res.Status != record.Succeeded || path(res) != "chat→exec→chat→end" || fmt.Sprint(res.Output) != "done" {
			t.Fatalf("%s: %s %s: %s", call.tool, res.Status, path(res), res.Error)
		}
		var req map[string]any
		_ = json.Unmarshal([]byte(told), &req)
		if !strings.Contains(told, call.said) || !strings.Contains(told, "call-1") {
			t.Errorf("%s: the model was not told the error: %s", call.tool, told)
		}
	}
}

// TestContenoxRetryPolicy: contenox/runtime@1ce113c29b92
// runtime/taskengine/llmretry/retry_test.go, as a chat_completion task's
// execute_config.retry_policy: a transient failure (429, 5xx) is tried
// again up to max_attempts, an auth failure never; after fallback_after
// failures in a row the fallback model is asked; an empty policy makes
// one attempt. (contenox's ClassifyError and backoff arithmetic are its
// Go API; their effect on a run is what these cases pin.)
func TestContenoxRetryPolicy(t *testing.T) {
	tests := []struct {
		source, policy string
		replies        []llmtest.Reply
		status         record.Status
		models         []string
	}{
		{"TestUnit_Do_RetriesOnRateLimitThenSucceeds", `{"max_attempts":3,"initial_backoff":"1ms"}`,
			[]llmtest.Reply{{Status: 429}, {Text: "ok"}}, record.Succeeded, []string{"m", "m"}},
		{"TestUnit_Do_RetriesOnRateLimitThenSucceeds (server errors)", `{"max_attempts":3,"initial_backoff":"1ms","max_backoff":"2ms"}`,
			[]llmtest.Reply{{Status: 503}, {Status: 500}, {Text: "ok"}}, record.Succeeded, []string{"m", "m", "m"}},
		{"TestUnit_Do_ExhaustsAttempts", `{"max_attempts":2,"initial_backoff":"1ms"}`,
			[]llmtest.Reply{{Status: 503}, {Status: 503}, {Text: "never asked"}}, record.Failed, []string{"m", "m"}},
		{"TestUnit_Do_NoRetryOnAuth", `{"max_attempts":5,"initial_backoff":"1ms"}`,
			[]llmtest.Reply{{Status: 401}, {Text: "never asked"}}, record.Failed, []string{"m"}},
		{"TestUnit_Do_NoRetryOnAuth (403)", `{"max_attempts":5,"initial_backoff":"1ms","fallback_model_id":"fb","fallback_after":1}`,
			[]llmtest.Reply{{Status: 403}, {Text: "never asked"}}, record.Failed, []string{"m"}},
		{"TestUnit_Do_FallbackAfterThreshold", `{"max_attempts":5,"initial_backoff":"1ms","fallback_model_id":"fb","fallback_after":2}`,
			[]llmtest.Reply{{Status: 503}, {Status: 503}, {Text: "ok"}}, record.Succeeded, []string{"m", "m", "fb"}},
		{"TestUnit_Do_FallbackAfterThreshold (fallback_after 0: never)", `{"max_attempts":3,"initial_backoff":"1ms","fallback_model_id":"fb"}`,
			[]llmtest.Reply{{Status: 503}, {Status: 503}, {Status: 503}, {Text: "never asked"}}, record.Failed, []string{"m", "m", "m"}},
		{"TestUnit_Do_ZeroPolicyMakesOneAttempt", `{}`,
			[]llmtest.Reply{{Status: 503}, {Text: "never asked"}}, record.Failed, []string{"m"}},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			src := `{"id":"r","tasks":[{"id":"chat","handler":"chat_completion","execute_config":{"provider":"openai","model":"m","retry_policy":` + tt.policy + `}}]}`
			l, err := loader.Parse("c.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New(tt.replies...)
			defer s.Close()
			res, _ := taskRun(t, l.Chain, "hi", s, "")
			var models []string
			for _, r := range s.Requests() {
				models = append(models, fmt.Sprint(r.Body["model"]))
			}
			if res.Status != tt.status || !slices.Equal(models, tt.models) {
				t.Errorf("%s %v: %s", res.Status, models, res.Error)
			}
		})
	}
}

// TestContenoxJSONTemplateAccess: contenox/runtime@1ce113c29b92
// runtime/taskengine/taskenvconvert_test.go
// TestUnit_SimpleEnv_ExecEnv_JSONTemplateAccess: a task whose output is
// JSON is read by a later template field by field, index included.
func TestContenoxJSONTemplateAccess(t *testing.T) {
	data := `{\"user\":{\"name\":\"John Doe\",\"age\":30,\"address\":{\"city\":\"New York\"}},\"repos\":[{\"name\":\"repo1\",\"owner\":{\"login\":\"org\"}},{\"name\":\"repo2\",\"owner\":{\"login\":\"user\"}}]}`
	runPort(t, portCase{
		source: "TestUnit_SimpleEnv_ExecEnv_JSONTemplateAccess",
		src: `{"id":"j","tasks":[{"id":"get_data","handler":"noop","prompt_template":"` + data + `","transition":{"branches":[{"operator":"default","goto":"process_data"}]}},
 {"id":"process_data","handler":"noop","prompt_template":"User name: {{.get_data.user.name}}\nUser age: {{.get_data.user.age}}\nCity: {{.get_data.user.address.city}}\nFirst repo name: {{(index .get_data.repos 0).name}}\nFirst repo owner: {{(index (index .get_data.repos 0).owner).login}}\nSecond repo name: {{(index .get_data.repos 1).name}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		status: record.Succeeded, path: "get_data→process_data→end",
		output: "User name: John Doe\nUser age: 30\nCity: New York\nFirst repo name: repo1\nFirst repo owner: org\nSecond repo name: repo2",
	})
	// the same class: a JSON list, a task id that is no Go identifier
	// (read by index, or by its variable get_data), and previous_output
	runPort(t, portCase{
		source: "TestUnit_SimpleEnv_ExecEnv_JSONTemplateAccess (a list, a dashed id)",
		src: `{"id":"j","tasks":[{"id":"get-data","handler":"noop","prompt_template":"[{\"n\":[3,4]},{\"n\":[5]}]","transition":{"branches":[{"operator":"default","goto":"sum"}]}},
 {"id":"sum","handler":"noop","prompt_template":"{{index (index (index . \"get-data\") 0).n 1}} {{(index .get_data 1).n}} {{len .previous_output}}","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
		status: record.Succeeded, path: "get-data→sum→end", output: "4 [5] 2",
	})
}

// TestContenoxToolsAllowlist: which tools a chat_completion task offers
// its model, as contenox resolves its execute_config.tools allowlist:
// contenox/runtime@242f51e43132 runtime/taskengine/tools_test.go
// (TestUnit_ResolveToolsNames_*), and the same cases under the older
// name hooks, contenox/runtime@073d93be143c runtime/taskengine/hooks_test.go
// (TestResolveHookNames_*). An unknown name (…_Exact_Miss) offers nothing
// in contenox; chainrun refuses the chain naming the hooks it has
// (TestTaskChainRefusals). The older TestResolveHookNames_Nil_ReturnsAll
// (no allowlist offers every hook) was reversed by contenox itself
// (TestUnit_ResolveToolsNames_Nil_ReturnsEmpty): a task without tools
// offers none, as the later test says. The runtime allowlist
// (WithRuntimeToolsAllowlist) is contenox's Go API for its caller; a run's
// counterpart is --grant, which only widens what a step may run.
func TestContenoxToolsAllowlist(t *testing.T) {
	fs := []string{"Read", "Write", "Edit", "Glob", "Grep"}
	all := append(slices.Clone(fs), "Bash")
	tests := []struct {
		source, field, list string
		want                []string
	}{
		{"TestUnit_ResolveToolsNames_Nil_ReturnsEmpty", "tools", "", nil},
		{"TestUnit_ResolveToolsNames_Empty_ReturnsNothing", "tools", `[]`, nil},
		{"TestUnit_ResolveToolsNames_Star_ReturnsAll", "tools", `["*"]`, all},
		{"TestUnit_ResolveToolsNames_Exact_Match", "tools", `["local_shell"]`, []string{"Bash"}},
		{"TestUnit_ResolveToolsNames_StarExclude_RemovesEntry", "tools", `["*","!local_shell"]`, fs},
		{"TestUnit_ResolveToolsNames_StarExcludeMiss_ReturnsAll", "tools", `["*","!local_fsx"]`, all},
		{"TestResolveHookNames_Exact_Match", "hooks", `["local_fs"]`, fs},
		{"TestResolveHookNames_StarExclude_RemovesEntry", "hooks", `["*","!local_fs"]`, []string{"Bash"}},
		{"TestResolveHookNames_Empty_ReturnsNothing", "hooks", `[]`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			ec := `"execute_config":{}`
			if tt.list != "" {
				ec = `"execute_config":{"` + tt.field + `":` + tt.list + `}`
			}
			l, err := loader.Parse("c.json", []byte(`{"id":"t","tasks":[{"id":"chat","handler":"chat_completion",`+ec+`}]}`), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New(llmtest.Reply{Text: "done"})
			defer s.Close()
			res, _ := taskRun(t, l.Chain, "go", s, "")
			if res.Status != record.Succeeded || s.Count() != 1 {
				t.Fatalf("%s: %s", res.Status, res.Error)
			}
			if got := offeredTools(s.Requests()[0]); !slices.Equal(got, tt.want) {
				t.Errorf("offered %v, want %v", got, tt.want)
			}
		})
	}
}

// TestContenoxSprigFunctions: contenox/runtime@cb2531a232c6
// runtime/taskengine/rendertemplate_sprig_test.go: a task's templates
// call Sprig's functions (TestUnit_RenderTemplate_SprigFuncsWired), and
// toJson gives a structured output as clean JSON, not Go's print of it
// (TestUnit_RenderTemplate_ToJsonStringifiesStructCleanly). Sprig's env
// and expandenv, which would put the run's secrets into a prompt, are
// refused when the chain loads.
func TestContenoxSprigFunctions(t *testing.T) {
	one := func(tmpl string) string {
		b, _ := json.Marshal(tmpl)
		return `{"id":"s","tasks":[{"id":"a","handler":"noop","prompt_template":"[{\"Role\":\"user\",\"Content\":\"hi\"},{\"Role\":\"assistant\",\"Content\":\"yo\"}]","transition":{"branches":[{"operator":"default","goto":"b"}]}},
 {"id":"b","handler":"noop","prompt_template":` + string(b) + `}]}`
	}
	for _, tt := range []struct{ source, tmpl, want string }{
		{"TestUnit_RenderTemplate_SprigFuncsWired", `up={{ "hi" | upper }} cut={{ trunc 3 "abcdef" }} arr={{ list 1 2 3 | toJson }}`, `up=HI cut=abc arr=[1,2,3]`},
		{"TestUnit_RenderTemplate_ToJsonStringifiesStructCleanly", `{{ .a | toJson }}`, `[{"Content":"hi","Role":"user"},{"Content":"yo","Role":"assistant"}]`},
		{"TestUnit_RenderTemplate_SprigFuncsWired (text)", `{{ "  a b " | trim | title }}|{{ replace "o" "0" "foo" }}|{{ "x" | quote }} {{ squote "y" }}|{{ substr 1 3 "abcdef" }}|{{ trunc -2 "abcdef" }}|{{ "a b" | nospace }}|{{ repeat 2 "ab" }}|{{ trimPrefix "v" "v1.2" }}`, `A B|f00|"x" 'y'|bc|ef|ab|abab|1.2`},
		{"TestUnit_RenderTemplate_SprigFuncsWired (lists, defaults)", `{{ (first .a).Content }} {{ (last .a).Role }} {{ splitList "," "p,q" | join "+" }} {{ .missing | default "none" }} {{ coalesce "" .b_error "c" }} {{ ternary "yes" "no" (contains "ell" "hello") }} {{ empty (list) }}{{ "L" | nindent 2 }}`, "hi assistant p+q none c yes true\n  L"},
	} {
		runPort(t, portCase{source: "contenox/runtime@cb2531a232c6 " + tt.source, src: one(tt.tmpl), status: record.Succeeded, path: "a→b→end", output: tt.want})
	}
	for _, fn := range []string{`env "HOME"`, `expandenv "$HOME"`, `genPrivateKey "rsa"`} {
		_, err := loader.Parse("s.json", []byte(one("{{ "+fn+" }}")), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), "not defined") || !strings.Contains(err.Error(), "not Sprig's env") {
			t.Errorf("%s: err = %v", fn, err)
		}
	}
}

// TestContenoxFailureContext: contenox/contenox@2f653670f782
// internal/kernel/taskengine/taskenv_test.go
// TestUnit_SimpleEnv_ExecEnv_FilteredEmptyFailureContextStillCarriesRootError
// and failurecontext_test.go TestUnit_EnsureFailureContext_*: the task a
// failure leads to reads the failed task's input, unless that holds
// nothing to report from; then it reads a note naming the failed task and
// quoting its error, so a recovery model is not asked about nothing.
func TestContenoxFailureContext(t *testing.T) {
	chainOf := func(first string) string {
		return `{"id":"f","tasks":[` + first + `
 {"id":"main","handler":"chat_completion","transition":{"on_failure":"summarise_failure"}},
 {"id":"summarise_failure","handler":"chat_completion","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	}
	tests := []struct {
		source, first, input string
		has, hasNot          []string
	}{
		// main asks no model: its input is blank
		{"TestUnit_EnsureFailureContext_StringInputs (blank)", `{"id":"blank","handler":"noop","prompt_template":"  ","transition":{"branches":[{"operator":"default","goto":"main"}]}},`, "x",
			[]string{`Task \"main\" failed`, "its input is empty"}, nil},
		{"TestUnit_EnsureFailureContext_StringInputs (real prompt)", ``, "real prompt",
			[]string{"real prompt"}, []string{"failed"}},
		{"TestUnit_EnsureFailureContext_ContentBearingHistoryUntouched", `{"id":"talk","handler":"chat_completion","transition":{"branches":[{"operator":"default","goto":"main"}]}},`, "real context",
			[]string{"real context", "earlier answer"}, []string{"failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			l, err := loader.Parse("f.json", []byte(chainOf(tt.first)), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			replies := []llmtest.Reply{{Status: 400}, {Text: "reported"}}
			switch {
			case strings.Contains(tt.first, "talk"):
				replies = append([]llmtest.Reply{{Text: "earlier answer"}}, replies...)
			case strings.Contains(tt.first, "blank"):
				replies = replies[1:]
			}
			s := llmtest.New(replies...)
			defer s.Close()
			res, _ := taskRun(t, l.Chain, tt.input, s, "")
			if res.Status != record.Succeeded || fmt.Sprint(res.Output) != "reported" {
				t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
			}
			lastAsked(t, s, tt.has, tt.hasNot)
		})
	}
}

// TestContenoxToolProtocol: every tool call a model made is answered
// before a model is asked again, as strict providers require.
// contenox/runtime@839f50639d3e runtime/taskengine/guard_test.go
// TestUnit_DanglingToolCallGuard_FlushesAndFallsThrough (a model task
// with tools given a conversation that ends with an unanswered call runs
// it once, then asks its model with its system instruction, the call and
// its result) and TestUnit_DanglingToolCallGuard_NoOpWhenNoToolCalls;
// contenox/runtime@d31abdce997c runtime/taskengine/taskexec_test.go
// TestUnit_TaskExec_ChatCompletionRepairsDanglingToolProtocol (a model
// task without tools never sends an unanswered call: contenox pairs it
// with a stub result, chainrun sends the conversation without it) and
// TestUnit_TaskExec_ExecuteToolCallsAnswersWholeBatchOnEarlyBreak (a call
// whose arguments are not JSON: contenox answers it with an error and
// stubs the calls after it; chainrun reads such a turn as a garbled
// answer and asks the model again, so the conversation never holds it,
// and every call of the turn it keeps is run and answered, a failing one
// with its error).
func TestContenoxToolProtocol(t *testing.T) {
	recovery := func(tools string) string {
		return `{"id":"g","tasks":[
 {"id":"chat","handler":"chat_completion","execute_config":{"tools":["local_shell"]},"transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"recovery_chat"},{"operator":"default","goto":"end"}]}},
 {"id":"recovery_chat","handler":"chat_completion","input_var":"chat","system_instruction":"BUDGET: round 10/20, be efficient","execute_config":{"tools":` + tools + `},"transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	}
	call := func(id, args string) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: id, Name: "Bash", Arguments: args}}}
	}
	tests := []struct {
		source, src string
		replies     []llmtest.Reply
		path        string
		ran         int
		has, hasNot []string
	}{{
		source: "TestUnit_DanglingToolCallGuard_FlushesAndFallsThrough",
		src:    recovery(`["local_shell"]`), replies: []llmtest.Reply{call("call-1", `{"command":"printf ECHOED"}`), {Text: "all good"}},
		path: "chat→recovery_chat→end", ran: 1,
		has: []string{"BUDGET: round 10/20", `"id":"call-1"`, "ECHOED", `"tool_call_id":"call-1"`},
	}, {
		source: "TestUnit_DanglingToolCallGuard_NoOpWhenNoToolCalls",
		src:    recovery(`["local_shell"]`), replies: []llmtest.Reply{{Text: "plain"}},
		path: "chat→end", ran: 0,
	}, {
		source: "TestUnit_TaskExec_ChatCompletionRepairsDanglingToolProtocol",
		src:    recovery(`[]`), replies: []llmtest.Reply{call("dangling", `{"command":"printf NEVER"}`), {Text: "recovered"}},
		path: "chat→recovery_chat→end", ran: 0,
		has: []string{"BUDGET"}, hasNot: []string{`"dangling"`, "NEVER"},
	}, {
		source: "TestUnit_TaskExec_ExecuteToolCallsAnswersWholeBatchOnEarlyBreak",
		src: `{"id":"b","tasks":[
 {"id":"chat","handler":"chat_completion","execute_config":{"tools":["local_shell"]},"transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"run_tools"},{"operator":"default","goto":"end"}]}},
 {"id":"run_tools","handler":"execute_tool_calls","input_var":"chat","transition":{"branches":[{"operator":"default","goto":"chat"}]}}]}`,
		replies: []llmtest.Reply{{ToolCalls: []llmtest.ToolCall{{ID: "call-1", Name: "Bash", Arguments: `{not-json`}, {ID: "call-2", Name: "Bash", Arguments: `{"command":"printf second"}`}}},
			{ToolCalls: []llmtest.ToolCall{{ID: "call-3", Name: "Bash", Arguments: `{"command":"printf third"}`}, {ID: "call-4", Name: "Bash", Arguments: `{"command":"exit 4"}`}}}, {Text: "done"}},
		path: "chat→run_tools→chat→end", ran: 2,
		has:    []string{`"tool_call_id":"call-3"`, `"tool_call_id":"call-4"`, "third", "exit code 4"},
		hasNot: []string{"not-json", "call-1", "call-2"},
	}}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			l, err := loader.Parse("g.json", []byte(tt.src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := llmtest.New(tt.replies...)
			defer s.Close()
			res, events := taskRun(t, l.Chain, "do it", s, "")
			if res.Status != record.Succeeded || path(res) != tt.path {
				t.Fatalf("%s %s: %s", res.Status, path(res), res.Error)
			}
			ran := 0
			for _, e := range events {
				if e.Type == event.ToolCall && e.Status == event.OK {
					ran++
				}
			}
			if ran != tt.ran {
				t.Errorf("%d calls ran, want %d", ran, tt.ran)
			}
			lastAsked(t, s, tt.has, tt.hasNot)
		})
	}
}

// lastAsked checks the last request the model server received: it holds
// each of has and none of hasNot.
func lastAsked(t *testing.T, s *llmtest.Server, has, hasNot []string) {
	t.Helper()
	last := body(s.Requests()[s.Count()-1])
	for _, w := range has {
		if !strings.Contains(last, w) {
			t.Errorf("the last request lacks %s: %s", w, last)
		}
	}
	for _, w := range hasNot {
		if strings.Contains(last, w) {
			t.Errorf("the last request has %s: %s", w, last)
		}
	}
}

// TestContenoxTruncatedAnswer: contenox/contenox@2f653670f782
// internal/kernel/taskengine/finishreason_test.go
// TestUnit_FinishReason_TruncationSurfacesOnCapturedStep: an answer the
// model stopped for length is a success carrying its finish reason, the
// partial text kept; the task's result is still executed (reference 003
// lists length among chat_completion's results: a cut answer is no
// failure), and the run's warnings say it was cut.
func TestContenoxTruncatedAnswer(t *testing.T) {
	for _, model := range []string{"openai/m", "anthropic/m"} {
		l, err := loader.Parse("c.json", []byte(`{"id":"chain.truncated","tasks":[{"id":"task1","handler":"chat_completion","prompt_template":"Answer at length: {{.input}}",
 "transition":{"branches":[{"operator":"equals","when":"executed","goto":"end"}]}}]}`), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		finish := map[string]string{"openai/m": "length", "anthropic/m": "max_tokens"}[model]
		s := llmtest.New(llmtest.Reply{Text: "partial ans", Finish: finish})
		res, _ := taskRun(t, l.Chain, "everything", s, "", model)
		s.Close()
		if res.Status != record.Succeeded || path(res) != "task1→end" || !strings.Contains(fmt.Sprint(res.Output), "partial ans") {
			t.Fatalf("%s: %s %s %v: %s", model, res.Status, path(res), res.Output, res.Error)
		}
		if got := res.Steps[0].FinishReason; got != "length" {
			t.Errorf("%s: finish reason %q", model, got)
		}
		if !strings.Contains(strings.Join(res.Warnings, "\n"), "task task1: the model's answer was cut off") {
			t.Errorf("%s: warnings %q", model, res.Warnings)
		}
	}
}

// TestContenoxTaskEvents: contenox/runtime@10e9e9b7fbb4 runtime/taskengine/
// events_test.go. TestTaskEvents_ExecEnvLifecycle: a run of one task says
// that the chain started, the task started and completed, and the chain
// completed, in that order; TestTaskEvents_ExecEnvFailureLifecycle: a
// failing task's failure comes before the chain's;
// TestTaskEvents_PrintTaskEmitsEventNotStdout: print is one event of its
// task with the rendered text (the engine writes nothing itself).
// chainrun's events are its own (run.started, step.started,
// step.finished, transition, run.finished); contenox's bus subjects and
// streamed chunk parcels have no counterpart to port.
func TestContenoxTaskEvents(t *testing.T) {
	kinds := func(events []event.Event) []string {
		var out []string
		for _, e := range events {
			switch e.Type {
			case event.RunStarted, event.RunFinished:
				out = append(out, string(e.Type)+" "+string(e.Status))
			case event.StepStarted, event.StepFinished:
				out = append(out, string(e.Type)+" "+e.Step+" "+string(e.Status))
			case event.StepLog:
				out = append(out, "print "+e.Step+" "+e.Line)
			}
		}
		return out
	}
	for _, tt := range []struct {
		source, src string
		want        []string
	}{
		{"TestTaskEvents_ExecEnvLifecycle", `{"id":"chain.lifecycle","tasks":[{"id":"task1","handler":"noop","transition":{"branches":[{"operator":"equals","when":"noop","goto":"end"}]}}]}`,
			[]string{"run.started ", "step.started task1 ", "step.finished task1 succeeded", "run.finished succeeded"}},
		{"TestTaskEvents_ExecEnvFailureLifecycle", `{"id":"chain.failure","tasks":[{"id":"task1","handler":"raise_error","prompt_template":"boom"}]}`,
			[]string{"run.started ", "step.started task1 ", "step.finished task1 failed", "run.finished failed"}},
		{"TestTaskEvents_PrintTaskEmitsEventNotStdout", `{"id":"chain.print","tasks":[{"id":"t1","handler":"noop","print":"chain says hi","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`,
			[]string{"run.started ", "step.started t1 ", "print t1 chain says hi", "step.finished t1 succeeded", "run.finished succeeded"}},
	} {
		l, err := loader.Parse("e.json", []byte(tt.src), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := llmtest.New()
		_, events := taskRun(t, l.Chain, "input", s, "")
		s.Close()
		if got := kinds(events); !slices.Equal(got, tt.want) {
			t.Errorf("%s: events %q, want %q", tt.source, got, tt.want)
		}
	}
}

// TestContenoxToolsRefusedByTheModel: contenox/runtime@d31abdce997c
// runtime/taskengine/taskexec_test.go
// TestUnit_TaskExec_ChatCompletionRetriesWithoutToolsWhenProviderRejectsToolCalls
// and …WhenToolSchemaRejected: a model whose server refuses tools (no
// tool support, a schema it cannot convert) is asked again without them,
// its conversation's tool protocol left out, and answers; the result is
// executed. contenox's third case (…WhenToolsOverflowContext) matches its
// own runtime's "context overflow" message, which chainrun cannot tell
// from a conversation too long by itself: that error stays the task's.
func TestContenoxToolsRefusedByTheModel(t *testing.T) {
	refusal := func(msg string) llmtest.Reply {
		return llmtest.Reply{Status: 400, Raw: `{"error":{"message":"` + msg + `","type":"invalid_request_error"}}`}
	}
	for _, tt := range []struct {
		source string
		first  llmtest.Reply
		status record.Status
	}{
		{"TestUnit_TaskExec_ChatCompletionRetriesWithoutToolsWhenProviderRejectsToolCalls", refusal("registry.ollama.ai/library/gemma:2b does not support tools"), record.Succeeded},
		{"TestUnit_TaskExec_ChatCompletionRetriesWithoutToolsWhenProviderRejectsToolCalls (llama.cpp)", refusal("unsupported feature: tool calls (model declares no tool_calls.protocol)"), record.Succeeded},
		{"TestUnit_TaskExec_ChatCompletionRetriesWithoutToolsWhenToolSchemaRejected", refusal("JSON schema conversion failed: unrecognized schema"), record.Succeeded},
		{"(another 400 is the task's failure)", refusal("invalid model parameter"), record.Failed},
	} {
		l, err := loader.Parse("c.json", []byte(`{"id":"t","tasks":[{"id":"chat","handler":"chat_completion","execute_config":{"tools":["local_shell"]},
 "transition":{"branches":[{"operator":"equals","when":"executed","goto":"end"},{"operator":"equals","when":"failed","goto":"end"}]}}]}`), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := llmtest.New(tt.first, llmtest.Reply{Text: "hello"})
		res, _ := taskRun(t, l.Chain, "say hi", s, "")
		reqs := s.Requests()
		s.Close()
		if tt.status == record.Failed {
			if res.Steps[0].Status != record.StepFailed || len(reqs) != 1 {
				t.Errorf("%s: %s after %d requests", tt.source, res.Steps[0].Status, len(reqs))
			}
			continue
		}
		if res.Status != record.Succeeded || fmt.Sprint(res.Output) != "hello" || len(reqs) != 2 {
			t.Fatalf("%s: %s %v after %d requests: %s", tt.source, res.Status, res.Output, len(reqs), res.Error)
		}
		if first, second := offeredTools(reqs[0]), offeredTools(reqs[1]); !slices.Equal(first, []string{"Bash"}) || len(second) != 0 {
			t.Errorf("%s: tools offered %v then %v", tt.source, first, second)
		}
		if !strings.Contains(strings.Join(res.Warnings, "\n"), "refused its tools") {
			t.Errorf("%s: warnings %q", tt.source, res.Warnings)
		}
	}
}

// TestContenoxOperators: how a branch's operator compares the task's
// result with its when, as contenox's compare does
// (contenox/runtime@12f9dda1ab07 runtime/taskengine/taskenv.go
// evaluateTransitions and compare; its earlier operators at
// contenox/runtime@c8da426eda8f taskengine/taskenv.go): equals is exact
// (case counts), contains, starts_with and ends_with are on the text;
// >, gt, <, lt and in_range compare numbers, bounds may be negative, and
// a result that is no number matches none of them (so default is taken);
// default is taken only when no other branch matches, wherever it is
// written; with none matching and no default the run fails naming the
// result. The task is a prompt_to_string whose answer is its result.
func TestContenoxOperators(t *testing.T) {
	tests := []struct {
		source, answer, branches, path, errHas string
	}{
		{"compare OpEquals (exact)", "yes", `{"operator":"equals","when":"yes","goto":"a"},{"operator":"default","goto":"b"}`, "ask→a→end", ""},
		{"compare OpEquals (case counts)", "Yes", `{"operator":"equals","when":"yes","goto":"a"},{"operator":"default","goto":"b"}`, "ask→b→end", ""},
		{"compare OpContains", "the api_failure", `{"operator":"contains","when":"fail","goto":"a"},{"operator":"default","goto":"b"}`, "ask→a→end", ""},
		{"compare OpStartsWith", "error: disk", `{"operator":"starts_with","when":"error:","goto":"a"},{"operator":"default","goto":"b"}`, "ask→a→end", ""},
		{"compare OpEndsWith", "report.pdf", `{"operator":"ends_with","when":".txt","goto":"a"},{"operator":"default","goto":"b"}`, "ask→b→end", ""},
		{"evaluateTransitions (default written first)", "go", `{"operator":"default","goto":"b"},{"operator":"equals","when":"go","goto":"a"}`, "ask→a→end", ""},
		{"compare OpGreaterThan", "7", `{"operator":">","when":"6","goto":"a"},{"operator":"default","goto":"b"}`, "ask→a→end", ""},
		{"compare OpGt (a result that is no number)", "many", `{"operator":"gt","when":"6","goto":"a"},{"operator":"default","goto":"b"}`, "ask→b→end", ""},
		{"compare OpLt", "-3", `{"operator":"lt","when":"-2","goto":"a"},{"operator":"default","goto":"b"}`, "ask→a→end", ""},
		{"compare OpInRange (negative bounds)", "-5", `{"operator":"in_range","when":"-10--2","goto":"a"},{"operator":"default","goto":"b"}`, "ask→a→end", ""},
		{"compare OpInRange (outside)", "0", `{"operator":"in_range","when":"-10--2","goto":"a"},{"operator":"default","goto":"b"}`, "ask→b→end", ""},
		{"evaluateTransitions (no matching transition)", "maybe", `{"operator":"equals","when":"yes","goto":"a"}`, "", `no branch matches the task's result "maybe"`},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			src := `{"id":"o","tasks":[{"id":"ask","handler":"prompt_to_string","transition":{"branches":[` + tt.branches + `]}},
 {"id":"a","handler":"noop"},{"id":"b","handler":"noop"}]}`
			status := record.Succeeded
			if tt.errHas != "" {
				status = record.Failed
			}
			runPort(t, portCase{source: tt.source, src: src, input: "q", replies: []llmtest.Reply{{Text: tt.answer}}, status: status, path: tt.path, errHas: []string{tt.errHas}})
		})
	}
}

// TestContenoxLocalShellArgs: contenox/runtime@2927ca241d92 runtime/localtools/
// localexec_test.go: a tools task's local_shell call written as contenox
// writes it, command and args (a string split as a shell would, or a
// list), cwd and timeout. TestUnit_LocalExecTools_Exec_NoPolicy_Allowed
// (echo with args "open posture"), …_Exec_AcceptsJSONDecodedArgsArray,
// …_Exec_NoTrimWhitespace; …_Exec_AllowlistReject (a program the
// _allowed_commands do not name is not run). Each argument stays one
// word: one that holds shell syntax is not run as it. The Go API's own
// cases (schemas, a nil tool, the spool writer, shell mode's flag) have no
// counterpart: chainrun's Bash always takes a shell line.
func TestContenoxLocalShellArgs(t *testing.T) {
	for _, tt := range []struct {
		source, args, policies, output, errHas string
	}{
		{"TestUnit_LocalExecTools_Exec_NoPolicy_Allowed", `{"command":"echo","args":"open posture"}`, ``, "open posture\n", ""},
		{"TestUnit_LocalExecTools_Exec_AcceptsJSONDecodedArgsArray", `{"command":"printf","args":["%s|%s","a b","c"]}`, ``, "a b|c", ""},
		{"(a quoted argument, a cwd, a timeout)", `{"command":"printf","args":"'%s;' \"x y\" z","cwd":"sub","timeout":"5s"}`, ``, "x y;z;", ""},
		{"(an argument holding shell syntax stays one word)", `{"command":"echo","args":"'$(touch pwned)' ';' rm"}`, ``, "$(touch pwned) ; rm\n", ""},
		// echo is a builtin that runs nothing, which chainrun's policies
		// need not allow (docs/workflows.md): ls stands in for it
		{"TestUnit_LocalExecTools_Exec_AllowlistReject", `{"command":"ls","args":"forbidden"}`, `{"local_shell":{"_allowed_commands":"env"}}`, "", `"ls" is not among the allowed commands`},
	} {
		ec := ""
		if tt.policies != "" {
			ec = `"execute_config":{"tools_policies":` + tt.policies + `},`
		}
		src := `{"id":"ls","tasks":[{"id":"say","handler":"tools",` + ec + `"tools":{"name":"local_shell","tool_name":"local_shell","args":` + tt.args + `},"transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
		l, err := loader.Parse("ls.json", []byte(src), chain.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.source, err)
		}
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		s := llmtest.New()
		res, _ := taskRun(t, l.Chain, "", s, dir)
		s.Close()
		if tt.errHas != "" {
			if res.Status != record.Failed || !strings.Contains(res.Error, tt.errHas) {
				t.Errorf("%s: %s: %s", tt.source, res.Status, res.Error)
			}
			continue
		}
		if res.Status != record.Succeeded || fmt.Sprint(res.Output) != tt.output {
			t.Errorf("%s: %s %q: %s", tt.source, res.Status, res.Output, res.Error)
		}
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Errorf("%s: an argument ran as a command", tt.source)
		}
	}
}

// TestContenoxLocalShellInputStaysOut: a tools task's input fills only
// the arguments the task leaves open, never local_shell's args, cwd or
// timeout: the chain's fixed command keeps its arguments and directory
// whatever the run's input says.
func TestContenoxLocalShellInputStaysOut(t *testing.T) {
	src := `{"id":"ls","tasks":[{"id":"mk","handler":"noop","prompt_template":"{\"args\":\"-p ../escaped\",\"cwd\":\"/\",\"timeout\":\"1ns\"}","transition":{"branches":[{"operator":"default","goto":"say"}]}},
 {"id":"say","handler":"tools","tools":{"name":"local_shell","tool_name":"local_shell","args":{"command":"pwd"}},"transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	l, err := loader.Parse("ls.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := llmtest.New()
	defer s.Close()
	res, _ := taskRun(t, l.Chain, "", s, dir)
	if res.Status != record.Succeeded || !strings.HasPrefix(fmt.Sprint(res.Output), dir) {
		t.Fatalf("%s %q: %s", res.Status, res.Output, res.Error)
	}
}
