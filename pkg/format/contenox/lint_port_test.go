package contenox

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// cxLint names the newest contenox's load-time checks of a chain: the
// repository github.com/contenox/contenox at commit 2f653670f782, file
// internal/kernel/taskengine/chainlint_test.go.
const cxLint = "contenox/contenox@2f653670f782 internal/kernel/taskengine/chainlint_test.go "

// TestContenoxLintChain: what contenox's LintChain says of a chain when
// it loads, ported. What the runtime refuses too (a dangling input_var,
// a route without labels, a repeated id, a dangling goto, an unknown
// handler) chainrun refuses, exit 2. What earlier contenox ran (a branch
// never taken, a template's "<no value>", an edge count of 0) loads with
// a warning naming what will happen, as chainrun never refuses what the
// peer's format accepted; and reference 003's "tool-call", which the
// newest contenox refuses, is read as tool_call: the reference wins.
// TestUnit_LintChain_ImpossibleEdgeIsLoadError and
// TestUnit_LintChain_OutputTemplateNarrowsToolsToString (text into
// execute_tool_calls) are decided when the task runs: its result is noop
// (TestContenoxTransitionPorts). TestUnit_LintChain_InputVarTypeMismatch
// (an int chain input) has no counterpart: a run's input is text.
func TestContenoxLintChain(t *testing.T) {
	chainOf := func(tasks ...string) string { return `{"id":"lint-test","tasks":[` + strings.Join(tasks, ",") + `]}` }
	tests := []struct {
		source, src string
		// err is what the refusal says ("" loads); warn what a warning
		// says ("" none asked); quiet what no warning may say
		err, warn, quiet string
	}{{
		source: "TestUnit_LintChain_GoodChainPasses",
		src: chainOf(`{"id":"chat","handler":"chat_completion","transition":{"on_failure":"summarise","branches":[{"operator":"equals","when":"tool_call","goto":"run_tools"},{"operator":"default","goto":"end"}]}}`,
			`{"id":"run_tools","handler":"execute_tool_calls","input_var":"chat","transition":{"branches":[{"operator":"default","goto":"chat"}]}}`,
			`{"id":"summarise","handler":"chat_completion","input_var":"previous_output","print":"chat said: {{.chat}} (error: {{.chat_error}})","transition":{"branches":[{"operator":"default","goto":"end"}]}}`),
		quiet: "chat",
	}, {
		// the same class: what a with or range makes dot is not read as
		// the chain's variables; a compose's with_var is one of them
		source: "TestUnit_LintChain_GoodChainPasses (compose, if, range)",
		src: chainOf(`{"id":"fetch","handler":"noop","prompt_template":"{\"items\":[{\"x\":1}]}","transition":{"branches":[{"operator":"default","goto":"report","compose":{"with_var":"items","strategy":"json_path:$.items"}}]}}`,
			`{"id":"report","handler":"noop","prompt_template":"{{if .fetch}}{{.input}}{{end}} {{range .items}}{{.x}}{{end}} {{with .last_error}}{{.y}}{{end}} {{.report_error}}"}`),
		quiet: "reads {{.",
	}, {
		source: "TestUnit_LintChain_TemplateRefToUnknownVar (in print, in an if)",
		src: chainOf(`{"id":"chat","handler":"chat_completion","transition":{"branches":[{"operator":"default","goto":"say"}]}}`,
			`{"id":"say","handler":"noop","print":"{{if .chta}}{{.chat}}{{end}}"}`),
		warn: `print reads {{.chta}}, which no task, compose or the engine sets: it renders "<no value>" (did you mean chat?)`,
	}, {
		source: "TestUnit_LintChain_RaiseErrorFlowsOnlyThroughOnFailure",
		src: chainOf(`{"id":"fail","handler":"raise_error","transition":{"on_failure":"explain","branches":[{"operator":"default","goto":"explain"}]}}`,
			`{"id":"explain","handler":"chat_completion","input_var":"last_error"}`),
	}, {
		source: "TestUnit_LintChain_AnyFlowsStayRuntimeChecked (a tools task's output into execute_tool_calls)",
		src: chainOf(`{"id":"fetch","handler":"tools","tools":{"name":"local_shell","tool_name":"local_shell","args":{"command":"date"}},"transition":{"branches":[{"operator":"default","goto":"digest"}]}}`,
			`{"id":"digest","handler":"execute_tool_calls"}`),
	}, {
		source: "TestUnit_LintChain_InputVarNeverProduced",
		src: chainOf(`{"id":"chat","handler":"chat_completion","transition":{"branches":[{"operator":"default","goto":"next"}]}}`,
			`{"id":"next","handler":"chat_completion","input_var":"chatt"}`),
		err: `input_var "chatt" is not a task of the chain (did you mean chat?)`,
	}, {
		source: "contenox/runtime@12f9dda1ab07 runtime/taskengine/taskenv_test.go TestUnit_SimpleEnv_ExecEnv_InputVar_InvalidVariable (contenox fails the run; chainrun refuses the chain before anything runs)",
		src:    chainOf(`{"id":"task1","handler":"noop","input_var":"nonexistent","prompt_template":"Should fail","transition":{"branches":[{"operator":"default","goto":"end"}]}}`),
		err:    `input_var "nonexistent" is not a task of the chain`,
	}, {
		source: "TestUnit_LintChain_RouteNeedsEqualsBranches",
		src:    chainOf(`{"id":"classify","handler":"route","transition":{"branches":[{"operator":"default","goto":"end"}]}}`),
		err:    `a route task needs equals branches`,
	}, {
		source: "TestUnit_LintChain_StructuralDefectsWrapErrChainLint (duplicate id)",
		src:    chainOf(`{"id":"a","handler":"noop"}`, `{"id":"a","handler":"noop"}`),
		err:    `task id "a" is given twice`,
	}, {
		source: "TestUnit_LintChain_StructuralDefectsWrapErrChainLint (unknown goto)",
		src:    chainOf(`{"id":"a","handler":"noop","transition":{"branches":[{"operator":"default","goto":"gone"}]}}`),
		err:    `"gone"`,
	}, {
		source: "TestUnit_LintChain_StructuralDefectsWrapErrChainLint (unknown handler)",
		src:    chainOf(`{"id":"a","handler":"prompt"}`),
		err:    `handler "prompt" is not one chainrun can run`,
	}, {
		// reference 003 writes "tool-call" (the result chat_completion
		// gives, in its words); the newest contenox refuses it as a
		// branch that can never fire. The reference wins: read as
		// tool_call, with a warning.
		source: "TestUnit_LintChain_DeadBranchOnClosedVocabulary (reference 003 wins: tool-call is read as tool_call)",
		src: chainOf(`{"id":"chat","handler":"chat_completion","transition":{"branches":[{"operator":"equals","when":"tool-call","goto":"run_tools"},{"operator":"default","goto":"end"}]}}`,
			`{"id":"run_tools","handler":"execute_tool_calls","input_var":"chat"}`),
		warn: `when "tool-call" is the older spelling of "tool_call"`,
	}, {
		// a result the handler never gives: contenox refuses the chain;
		// chainrun warns naming what the task gives, as reference 003's
		// own words (stop, length) are such results
		source: "TestUnit_LintChain_DeadBranchOnClosedVocabulary (a result chat_completion never gives)",
		src:    chainOf(`{"id":"chat","handler":"chat_completion","transition":{"branches":[{"operator":"equals","when":"finished","goto":"end"},{"operator":"default","goto":"end"}]}}`),
		warn:   `tool_call, executed`,
	}, {
		source: "TestUnit_LintChain_DeadBranchOnClosedVocabulary (a result noop never gives)",
		src:    chainOf(`{"id":"n","handler":"noop","transition":{"branches":[{"operator":"equals","when":"ok","goto":"end"},{"operator":"default","goto":"end"}]}}`),
		warn:   `noop`,
	}, {
		source: "TestUnit_LintChain_MacroChecks (edge_count of an unknown task)",
		src: chainOf(`{"id":"chat","handler":"chat_completion","system_instruction":"Used {{edge_count:chat->run_toolz}} rounds","transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"run_tools"},{"operator":"default","goto":"end"}]}}`,
			`{"id":"run_tools","handler":"execute_tool_calls","input_var":"chat"}`),
		warn: `{{edge_count:chat->run_toolz}} names "run_toolz", which is not a task of the chain: it reads 0`,
	}, {
		source: "TestUnit_LintChain_MacroChecks (edge_count into end)",
		src: chainOf(`{"id":"chat","handler":"chat_completion","system_instruction":"{{edge_count:chat->end}}","transition":{"branches":[{"operator":"equals","when":"tool_call","goto":"run_tools"},{"operator":"default","goto":"end"}]}}`,
			`{"id":"run_tools","handler":"execute_tool_calls","input_var":"chat"}`),
		warn: `{{edge_count:chat->end}} counts a move into end, which no task reads (the run has ended): it reads 0`,
	}, {
		source: "TestUnit_LintChain_MacroChecks (var names no variable)",
		src:    chainOf(`{"id":"chat","handler":"chat_completion","system_instruction":"model {{var:}}"}`),
		warn:   `{{var:}} names no variable`,
	}, {
		source: "TestUnit_LintChain_TemplateRefToUnknownVar",
		src:    chainOf(`{"id":"report","handler":"chat_completion","prompt_template":"summarise {{.summry}} briefly"}`),
		warn:   `prompt_template reads {{.summry}}, which no task, compose or the engine sets: it renders "<no value>"`,
	}, {
		source: "TestUnit_LintChain_PromptTemplateIntoExecuteToolCalls",
		src:    chainOf(`{"id":"run_tools","handler":"execute_tool_calls","prompt_template":"{{.input}}"}`),
		warn:   `prompt_template makes an execute_tool_calls task's input text, which holds no tool calls: the task runs none (its result is noop)`,
	}, {
		// contenox/runtime@1ce113c29b92 runtime/taskengine/llmretry/retry.go
		// (Do): fallback_after 0 disables the fallback "regardless of
		// FallbackModelID"
		source: "contenox/runtime@1ce113c29b92 llmretry/retry_test.go TestUnit_Do_FallbackAfterThreshold (no fallback_after)",
		src:    chainOf(`{"id":"chat","handler":"chat_completion","execute_config":{"model":"m","retry_policy":{"max_attempts":3,"fallback_model_id":"fb"}}}`),
		warn:   `retry_policy.fallback_model_id "fb" is never asked`,
	}, {
		source: "TestUnit_Do_FallbackAfterThreshold (fallback_after not below max_attempts)",
		src:    chainOf(`{"id":"chat","handler":"chat_completion","execute_config":{"model":"m","retry_policy":{"max_attempts":2,"fallback_model_id":"fb","fallback_after":2}}}`),
		warn:   `fallback_after (2) is not between 1 and max_attempts (2)`,
	}}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			t.Logf("source: %s%s", cxLint, tt.source)
			l, err := parseChain("c.json", []byte(tt.src), chain.Options{})
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("err = %v, want %q", err, tt.err)
			case tt.warn != "" && !strings.Contains(warningsOf(l), tt.warn):
				t.Errorf("warnings %q, want %q", warningsOf(l), tt.warn)
			case tt.quiet != "" && strings.Contains(warningsOf(l), tt.quiet):
				t.Errorf("warnings %q say %q", warningsOf(l), tt.quiet)
			}
		})
	}
}

// TestContenoxHandlerVocabulary: contenox/runtime@0233a948c3c0
// runtime/taskengine/handlerpredicates_test.go (and
// contenox/contenox@2f653670f782 internal/kernel/taskengine/, the same
// file): its allHandlers are the whole vocabulary, and a handler nobody
// taught the engine is no handler. Every one loads in chainrun; an unknown
// or empty handler is refused. What the two predicates decide (whether a
// handler's streamed text is the assistant's prose, whether it draws its
// own tool-call cards) is for contenox's ACP and VS Code surfaces: chainrun
// streams every model task's text as llm.delta events of its step, so
// there is nothing more to port.
func TestContenoxHandlerVocabulary(t *testing.T) {
	tasks := map[string]string{
		"raise_error":        `"prompt_template":"boom"`,
		"route":              `"transition":{"branches":[{"operator":"equals","when":"a","goto":"end"}]}`,
		"chat_completion":    `"transition":{}`,
		"execute_tool_calls": `"transition":{}`,
		"noop":               `"transition":{}`,
		"tools":              `"tools":{"name":"local_shell","tool_name":"local_shell","args":{"command":"date"}}`,
	}
	for handler, rest := range tasks {
		src := `{"id":"v","tasks":[{"id":"t","handler":"` + handler + `",` + rest + `}]}`
		if _, err := parseChain("v.json", []byte(src), chain.Options{}); err != nil {
			t.Errorf("%s: %v", handler, err)
		}
	}
	for _, handler := range []string{"a_handler_added_tomorrow", ""} {
		src := `{"id":"v","tasks":[{"id":"t","handler":"` + handler + `"}]}`
		if _, err := parseChain("v.json", []byte(src), chain.Options{}); err == nil || !strings.Contains(err.Error(), "handler") {
			t.Errorf("%q: err = %v", handler, err)
		}
	}
}

// TestContenoxSystemAdditions: contenox/runtime@a8addee76a11
// runtime/taskengine/macroenv_test.go: what contenox adds to a task's
// system instruction, and its macros there.
// TestUnit_MacroEnv_ToolPreference_InjectedWhenBothPresent,
// …_SkippedWhenLocalShellAbsent, …_SkippedWhenLocalFSAbsent,
// …_SkippedWhenNoTools; TestUnit_MacroEnv_HostFacts_AutoAppendedAndIdempotent;
// TestUnit_MacroEnv_HostMacro_ExpandsToRuntimeFacts;
// TestUnit_MacroEnv_DateMacro_ExpandsToDateOnly; and macroenv.go's tools
// summary, added when the instruction does not speak of tools. The
// preference names chainrun's file tools (Read, Write, Edit, Glob, Grep)
// where contenox's names its local_fs.* ones.
func TestContenoxSystemAdditions(t *testing.T) {
	host := "Host: os=" + runtime.GOOS + " arch=" + runtime.GOARCH
	tests := []struct {
		source, system, tools string
		has, hasNot           []string
		count                 map[string]int
	}{
		{"TestUnit_MacroEnv_ToolPreference_InjectedWhenBothPresent", "You are an agent.", `["*"]`,
			[]string{"TOOL PREFERENCE", "local_fs", "local_shell", "Read, Write, Edit, Glob, Grep", host, "Available tools (tools -> function names):\n" + `\{"local_fs":["Edit","Glob","Grep","Read","Write"],"local_shell":["Bash"]}`}, nil, nil},
		{"TestUnit_MacroEnv_ToolPreference_SkippedWhenLocalShellAbsent", "You are an agent.", `["local_fs"]`, []string{host}, []string{"TOOL PREFERENCE"}, nil},
		{"TestUnit_MacroEnv_ToolPreference_SkippedWhenLocalFSAbsent", "You are an agent.", `["local_shell"]`, []string{host}, []string{"TOOL PREFERENCE"}, nil},
		{"TestUnit_MacroEnv_ToolPreference_SkippedWhenNoTools", "You are an agent.", `[]`, []string{host}, []string{"TOOL PREFERENCE", "Available tools"}, nil},
		{"macroenv.go tools summary (the instruction speaks of tools)", "Use your tools well.", `["local_shell"]`, []string{host}, []string{"Available tools"}, nil},
		{"TestUnit_MacroEnv_HostFacts_AutoAppendedAndIdempotent", "Facts. Host: os={{host:os}} arch={{host:arch}}", `[]`, []string{host}, nil, map[string]int{"Host: os=": 1}},
		{"TestUnit_MacroEnv_HostMacro_ExpandsToRuntimeFacts", "os {{host:os}} arch {{host:arch}} all {{host}}", `[]`,
			[]string{"os " + runtime.GOOS + " arch " + runtime.GOARCH, `all \{"arch":"` + runtime.GOARCH + `","os":"` + runtime.GOOS + `"}`}, nil, map[string]int{"Host: os=": 1}},
		// macroenv_test.go TestUnit_MacroEnv_Tools_* and _List_*: {{tools}}
		// and {{toolservice:…}} show the task's allowlist only
		{"TestUnit_MacroEnv_Tools_NoAllowlist", "T {{tools}}", `[]`, []string{`T \{}`}, nil, nil},
		{"TestUnit_MacroEnv_Tools_StarAllowlist", "T {{tools}}", `["*"]`, []string{`T \{"local_fs":["Edit","Glob","Grep","Read","Write"],"local_shell":["Bash"]}`}, nil, nil},
		{"TestUnit_MacroEnv_Tools_WithAllowlist", "T {{tools}}", `["local_shell"]`, []string{`T \{"local_shell":["Bash"]}`}, nil, nil},
		{"TestUnit_MacroEnv_List_WithAllowlist", "T {{toolservice:list}}", `["local_fs"]`, []string{`T \{"local_fs":["Edit","Glob","Grep","Read","Write"]}`}, []string{`"local_shell":`}, nil},
		{"TestUnit_MacroEnv_Tools_Allowed", "T {{toolservice:tools local_shell}}", `["local_shell"]`, []string{`T ["Bash"]`}, nil, nil},
		{"TestUnit_MacroEnv_Tools_NotAllowed", "T {{toolservice:tools local_shell}}", `["local_fs"]`, []string{`T []`}, nil, nil},
		{"TestUnit_MacroEnv_Tools_NoAllowlist_Allowed", "T {{toolservice:tools local_shell}}", `["*"]`, []string{`T ["Bash"]`}, nil, nil},
		{"TestUnit_MacroEnv_DateMacro_ExpandsToDateOnly", "today {{date}} y {{date:2006}}", `[]`,
			[]string{"today " + time.Now().Format("2006-01-02") + " y " + time.Now().Format("2006")}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			sys, _ := json.Marshal(tt.system)
			src := `{"id":"m","tasks":[{"id":"task1","handler":"chat_completion","system_instruction":` + string(sys) + `,"execute_config":{"model":"test","tools":` + tt.tools + `}}]}`
			l, err := parseChain("m.json", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := l.Chain.Workflow.State("task1").Task.Agent().System
			for _, w := range tt.has {
				if !strings.Contains(got, w) {
					t.Errorf("system lacks %q: %q", w, got)
				}
			}
			for _, w := range tt.hasNot {
				if strings.Contains(got, w) {
					t.Errorf("system has %q: %q", w, got)
				}
			}
			for w, n := range tt.count {
				if c := strings.Count(got, w); c != n {
					t.Errorf("%q %d times, want %d: %q", w, c, n, got)
				}
			}
		})
	}
	// a task without a system instruction gets nothing added
	l, err := parseChain("m.json", []byte(`{"id":"m","tasks":[{"id":"task1","handler":"chat_completion","execute_config":{"tools":["*"]}}]}`), chain.Options{})
	if err != nil || l.Chain.Workflow.State("task1").Task.Agent().System != "" {
		t.Errorf("system %q, %v", l.Chain.Workflow.State("task1").Task.Agent().System, err)
	}
}

// TestContenoxExecuteConfigVars: contenox/runtime@a8addee76a11
// runtime/taskengine/macroenv_test.go TestUnit_MacroEnv_ExecuteConfigMaxTokens_*
// and TestUnit_MacroEnv_VarFallback*: {{var:NAME|default}} in
// execute_config. contenox's caller variables have no counterpart in a
// run, so each reads as it does when the caller gives none: its written
// default (max_tokens 256), and a fallback that names another variable
// (var:model) is empty, so the task asks the run's model, where contenox
// fails the run (…_VarFallbackMissingReferenceErrors). A default that is
// no number is refused at load (…_InvalidVarErrors).
func TestContenoxExecuteConfigVars(t *testing.T) {
	task := func(ec string) string {
		return `{"id":"m","tasks":[{"id":"task1","handler":"chat_completion","execute_config":` + ec + `}]}`
	}
	l, err := parseChain("m.json", []byte(task(`{"model":"test","max_tokens":"{{var:max_tokens|256}}"}`)), chain.Options{})
	if err != nil || l.Chain.Workflow.State("task1").Task.Agent().MaxTokens != 256 {
		t.Errorf("TestUnit_MacroEnv_ExecuteConfigMaxTokens_UsesFallback: %v", err)
	}
	for _, model := range []string{`{{var:alt_model|var:model}}`, `{{var:model|var:alt-model}}`, `{{var:model}}`} {
		l, err := parseChain("m.json", []byte(task(`{"provider":"{{var:alt_provider|var:provider}}","model":"`+model+`"}`)), chain.Options{})
		if s := l.Chain.Workflow.State("task1").Task; err != nil || s.Agent().Model != "" {
			t.Errorf("TestUnit_MacroEnv_VarFallbackCanReferenceAnotherVar %s: model %q, %v", model, s.Agent().Model, err)
		}
	}
	if _, err := parseChain("m.json", []byte(task(`{"model":"test","max_tokens":"{{var:max_tokens|lots}}"}`)), chain.Options{}); err == nil || !strings.Contains(err.Error(), `max_tokens "lots" is not a number of tokens`) {
		t.Errorf("TestUnit_MacroEnv_ExecuteConfigMaxTokens_InvalidVarErrors: %v", err)
	}
}
