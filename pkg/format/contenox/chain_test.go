package contenox

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestTaskChainFiles loads every contenox task chain of the corpus: each
// maps onto a workflow, a state per task.
func TestTaskChainFiles(t *testing.T) {
	tests := []struct {
		file, initial string
		states        int
		inputRequired bool
	}{
		{"agent-apitest-noop.json", "reply", 1, false},
		{"agent-planner.json", "plan_loop", 4, true},
		{"chain-acp.json", "classify_request", 10, true},
		{"chain-acpx.json", "acp_chat", 5, true},
		{"chain-compact-default.json", "compact_history", 1, true},
		{"chain-compact.json", "compact_history", 1, true},
		{"chain-contenox.json", "classify_request", 10, true},
		{"chain-fim-default.json", "fim_complete", 1, true},
		{"chain-fim.json", "fim_complete", 1, true},
		{"chain-oracle-default.json", "oracle_loop", 5, true},
		{"chain-planner-default.json", "plan_loop", 4, true},
		{"chain-run.json", "contenox_run", 5, true},
		{"contenox-bench-no-tools-chain.json", "answer", 1, true},
		{"demo-chain.json", "classify_request", 10, true},
		{"qa-ollama.json", "generate_response", 1, true},
		{"route-demo.json", "classify", 3, true},
		{"simple-chat-with-moderation.json", "moderate", 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, err := loadFile("testdata/contenox/"+tt.file, chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := l.Chain
			w := c.Workflow
			if w == nil || w.InitialState != tt.initial || len(w.States) != tt.states {
				t.Fatalf("workflow = %+v, want initial %s and %d states", w, tt.initial, tt.states)
			}
			if len(c.Inputs) != 1 || c.Inputs[0].Name != "input" || c.Inputs[0].Optional == tt.inputRequired {
				t.Errorf("inputs = %+v, want input required %v", c.Inputs, tt.inputRequired)
			}
			for _, s := range w.States {
				if HandlerOf(s.Task) == nil {
					t.Errorf("state %s: task without handler", s.Name)
				}
			}
		})
	}
}

// TestTaskChainMapping checks what a task becomes: route's labels, the
// macros, the tools, the hooks, the operators and on_failure.
func TestTaskChainMapping(t *testing.T) {
	now = func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	defer func() { now = time.Now }()
	l, err := loadFile("testdata/contenox/chain-run.json", chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := l.Chain.Workflow
	run := w.State("contenox_run")
	if got := strings.Join(run.Task.Agent().Tools, ","); got != strings.Join(chain.LocalTools, ",") {
		t.Errorf("tools = %s, want every built-in tool", got)
	}
	if run.OnFailure != "recovery_run" || run.Task.Kind != chain.KindAgent || HandlerOf(run.Task).Name != HandlerChat || HandlerOf(run.Task).Input != "" {
		t.Errorf("contenox_run = %+v %+v", run, HandlerOf(run.Task))
	}
	if h := w.State("run_tools").Task; h.Kind != chain.KindNoop || HandlerOf(h).Input != "contenox_run" || len(h.Agent().Tools) != len(chain.LocalTools) {
		t.Errorf("run_tools = %s %+v %v", h.Kind, HandlerOf(h), h.Agent().Tools)
	}
	if _, ok := w.Counters[edgeCounterVar("contenox_run", "run_tools")]; !ok {
		t.Errorf("counters = %v, want contenox_run->run_tools", w.Counters)
	}
	if !strings.HasPrefix(run.Task.Agent().System, "Current date: 2026-03-04.") {
		t.Errorf("{{date}} was not expanded: %q", run.Task.Agent().System[:60])
	}
	b := run.Branches[0]
	if b.Operator != chain.OpEdgeTraversed || b.Take("", func(chain.Edge) int { return 9 }) || !b.Take("", func(chain.Edge) int { return 10 }) {
		t.Errorf("branch 1 = %+v: want edge_traversed_at_least 10", b)
	}
	if w.MaxChainDepth != chain.DefaultMaxChainDepth+2*(10+10) {
		t.Errorf("maxChainDepth = %d, want 50 and two moves per budgeted round", w.MaxChainDepth)
	}
	if sf := w.State("summarise_failure").Task; HandlerOf(sf).MaxInputBytes != 8192 || HandlerOf(sf).Input != "recovery_run" {
		t.Errorf("summarise_failure = %+v", HandlerOf(sf))
	}
	l, err = loadFile("testdata/contenox/route-demo.json", chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(HandlerOf(l.Chain.Workflow.State("classify").Task).Routes, ","); got != "code,question" {
		t.Errorf("route labels = %s", got)
	}
	l, err = loadFile("testdata/contenox/chain-oracle-default.json", chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ow := l.Chain.Workflow
	if got := ow.State("oracle_loop").Task.Agent().Tools; !slices.Equal(got, []string{ToolSubmitVerdict}) || l.Chain.Tool(ToolSubmitVerdict) == nil {
		t.Errorf("oracle_loop tools = %v", got)
	}
	if h := HandlerOf(ow.State("oracle_correct").Task); h.Hook != HookOracle || h.Tool != ToolVerdictState || h.Output == nil {
		t.Errorf("oracle_correct = %+v", h)
	}
	// contenox takes a default branch last, wherever it is written
	if br := ow.State("oracle_loop").Branches; br[len(br)-1].Operator != chain.OpDefault || br[2].Operator != chain.OpEdgeTraversed {
		t.Errorf("oracle_loop branches in order %v %v %v %v", br[0].Operator, br[1].Operator, br[2].Operator, br[3].Operator)
	}
	l, err = loadFile("testdata/contenox/chain-planner-default.json", chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sys := l.Chain.Workflow.State("plan_loop").Task.Agent().System
	if !strings.Contains(sys, `\{"mission":["mission_ask_attention","mission_finish","mission_plan","mission_report"]}`) {
		t.Errorf("{{tools}} = %q", sys[strings.Index(sys, "Available tools"):])
	}
}

// TestTaskChainMacros: what each macro becomes, where.
func TestTaskChainMacros(t *testing.T) {
	now = func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	defer func() { now = time.Now }()
	src := `{"id":"m","tasks":[{"id":"a","handler":"chat_completion",
  "system_instruction":"{{date}} {{date:02/01}} {{now}} {{now:15:04}} {{chain:id}} {{var:who|anon}} {x} {{edge_count:a->b}}",
  "prompt_template":"{{now}} {{.input}} {{edge_count:a->b}} {{if .input}}yes{{end}}",
  "execute_config":{"tools":["local_shell"]},
  "transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"b"},{"operator":"default","goto":"end"}]}},
 {"id":"b","handler":"execute_tool_calls","transition":{"branches":[{"operator":"default","goto":"a"}]}}]}`
	l, err := parseChain("m.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := l.Chain.Workflow.State("a").Task
	// what contenox adds after the instruction is TestContenoxSystemAdditions'
	if want := `2026-03-04 04/03 2026-03-04 05:06 m anon \{x} {{.edge_count__a__b}}`; !strings.HasPrefix(a.Agent().System, want+"\n\n") {
		t.Errorf("system = %q, want %q", a.Agent().System, want)
	}
	var b strings.Builder
	if err := HandlerOf(a).Prompt.Execute(&b, map[string]any{"input": "hi", "edge_count__a__b": "3"}); err != nil || b.String() != "2026-03-04T05:06:07Z hi 3 yes" {
		t.Errorf("prompt = %q %v", b.String(), err)
	}
	if got := l.Chain.Workflow.State("b").Task.Agent().Tools; !slices.Equal(got, []string{"Bash"}) {
		t.Errorf("an execute_tool_calls task without tools gets the chain's: %v", got)
	}
}

// TestTaskChainExecuteConfig: models, fallbacks, hidden tools, star
// exclusions.
func TestTaskChainExecuteConfig(t *testing.T) {
	src := `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{
  "model":"qwen2.5:7b","provider":"ollama","models":["gpt-4o-mini","{{var:m|claude-x}}"],"providers":["openai","anthropic"],
  "tools":["*","!local_shell"],"hide_tools":["local_fs.Write"],"retry_policy":{"max_attempts":3,"fallback_model_id":"llama3","fallback_after":2}}}]}`
	l, err := parseChain("x.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := l.Chain.Workflow.State("a").Task
	if a.Agent().Model != "ollama/qwen2.5:7b" || !slices.Equal(a.Agent().FallbackModels, []string{"openai/gpt-4o-mini", "anthropic/claude-x", "ollama/llama3"}) {
		t.Errorf("model %s, fallbacks %v", a.Agent().Model, a.Agent().FallbackModels)
	}
	// the model is asked fallback_after times before the fallback
	if !slices.Equal(a.Agent().Tools, []string{"Read", "Edit", "Glob", "Grep"}) || a.Retry.Max != 2 {
		t.Errorf("tools %v, retry %+v", a.Agent().Tools, a.Retry)
	}
}

// TestTaskChainRefusals: what chainrun cannot run is named, with its
// position.
func TestTaskChainRefusals(t *testing.T) {
	tests := []struct{ src, want string }{
		{`{"id":"x","tasks":[{"id":"a","handler":"hook"}]}`, `1:30: task "a": a hook task (handler hook, the older name of tools) needs hook: {name, tool_name, args}`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","colour":1}]}`, `unknown field "colour"`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","system_instruction":"{{weather}}"}]}`, `macro {{weather}} is not supported`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"branches":[{"operator":"edge_traversed_at_least","when":"2","edge":"a->b","goto":"end"},{"operator":"default","goto":"end"}]}}]}`, `edge "a->b": "b" is not a state`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"on_failure":"z","branches":[{"operator":"default","goto":"end"}]}}]}`, `on_failure "z" is not a state`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"tools":["nws"]}}]}`, `tool hook "nws" is not supported (nws is the US National Weather Service API: chainrun has no built-in tool for it; a chain step of type http, or an MCP connection, calls such a service): chainrun has local_fs`},
		{`{"id":"x","tasks":[{"id":"a","handler":"tools","tools":{"name":"slack","tool_name":"post"}}]}`, `tool hook "slack" is not supported`},
		{`{"id":"x","tasks":[{"id":"a","handler":"tools","tools":{"name":"oracle","tool_name":"verdict"}}]}`, `tools.tool_name "verdict" is not a tool of oracle`},
		{`{"id":"x","tasks":[{"id":"a","handler":"tools"}]}`, `a tools task needs tools: {name, tool_name, args}`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","print":"{{ .a | toYaml }}"}]}`, `task "a": print:1: function "toYaml" not defined (a task chain's templates have Go's own functions and Sprig's text, list and default ones`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","input_var":"ghost"}]}`, `input_var "ghost" is not a task of the chain`},
		{`{"id":"x","tasks":[{"id":"a","handler":"route","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`, `a route task needs equals branches`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","output_template":"x"}]}`, `tools and output_template belong to a tools task`},
		// contenox/runtime@7d0a257f42ac runtime/taskengine/taskenv.go
		// (validation: "duplicate task ID"): a chain whose tasks share an
		// id is refused, naming both lines
		{"{\"id\":\"x\",\"tasks\":[\n{\"id\":\"a\",\"handler\":\"noop\"},\n{\"id\":\"a\",\"handler\":\"raise_error\"}]}", `3:7: task id "a" is given twice (lines 2 and 3)`},
		{"id: y\ntasks:\n  - id: s\n    handler: noop\n    transition: {on_failure: s2}\n  - id: s2\n    handler: noop\n  - id: s\n    handler: noop\n", `8:9: task id "s" is given twice (lines 3 and 8)`},
		{"id: y\ntasks:\n  - {id: q, handler: noop}\n  - {id: r, handler: noop}\n  - {id: r, handler: noop}\n  - {id: r, handler: noop}\n", `task id "r" is given twice (lines 4 and 6)`},
	}
	for _, tt := range tests {
		_, err := parseChain("x.json", []byte(tt.src), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.src, err, tt.want)
		}
	}
}

// TestTaskChainTransitions: a task without branches (or transition) ends
// the chain; an empty goto is end.
func TestTaskChainTransitions(t *testing.T) {
	src := `{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"on_failure":"b"}},
  {"id":"b","handler":"noop","transition":{"branches":[{"operator":"default","when":"","goto":""}]}}]}`
	l, err := parseChain("x.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := l.Chain.Workflow
	if a := w.State("a"); a.OnFailure != "b" || len(a.Branches) != 1 || a.Branches[0].Goto != chain.End {
		t.Errorf("a = %+v", a)
	}
	if b := w.State("b"); b.Branches[0].Goto != chain.End {
		t.Errorf("b = %+v", b.Branches[0])
	}
}
