package contenox

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestTaskChainEarliestNames: the handlers and keys of contenox's first
// task-chain formats (contenox/runtime@7bdaaf86b3 and @15a609e8
// taskengine/tasktype.go: TaskType under type, HandleRawString,
// HandleParseNumber, HandleModelExecution, TaskTransition.OnFailureAlert,
// TransitionBranch.AlertOnMatch, ChainDefinition.RoutingStrategy; @4d7ad608
// localhooks/localexec.go: local_exec) load as the newer names, each with
// a warning naming both.
func TestTaskChainEarliestNames(t *testing.T) {
	tests := []struct {
		name, src string
		warns     []string
		check     func(*chain.Chain) bool
	}{{
		name:  "raw_string is prompt_to_string",
		src:   `{"id":"x","tasks":[{"id":"a","handler":"raw_string","system_instruction":"be brief","prompt_template":"Q: {{.input}}"}]}`,
		warns: []string{"handler raw_string is the older name of prompt_to_string: read as prompt_to_string (it put the system_instruction before the input in one message"},
		check: func(c *chain.Chain) bool {
			s := c.Workflow.State("a").Task
			return HandlerOf(s).Name == HandlerPromptString && strings.HasPrefix(s.Agent().System, "be brief\n") // then what contenox adds (TestContenoxSystemAdditions)
		},
	}, {
		name:  "parse_number is prompt_to_int, its > a range",
		src:   "id: x\ntasks:\n  - id: a\n    handler: parse_number\n    transition:\n      branches:\n        - {operator: gt, when: '5', goto: end}\n",
		warns: []string{"4:5: warning: task \"a\": handler parse_number is the older name of prompt_to_int", `operator "gt" is of an earlier contenox format`},
		check: func(c *chain.Chain) bool { return HandlerOf(c.Workflow.State("a").Task).Name == HandlerPromptInt },
	}, {
		name:  "model_execution is chat_completion",
		src:   `{"id":"x","tasks":[{"id":"a","handler":"model_execution","transition":{"branches":[{"operator":"equals","when":"executed","goto":"end"}]}}]}`,
		warns: []string{"handler model_execution is the older name of chat_completion", "model_execution failed on a text input"},
		check: func(c *chain.Chain) bool { return HandlerOf(c.Workflow.State("a").Task).Name == HandlerChat },
	}, {
		name:  "type is handler, a hook's type its name",
		src:   `{"id":"x","tasks":[{"id":"a","type":"hook","hook":{"type":"local_fs","tool_name":"read_file","args":{"path":"a.txt"}}}]}`,
		warns: []string{`task "a": type is the older name of handler: read as handler`, `task "a": hook: type is the older name of name: read as name`},
		check: func(c *chain.Chain) bool {
			h := HandlerOf(c.Workflow.State("a").Task)
			return h.Name == HandlerTools && h.Hook == HookLocalFS && h.Tool == "Read"
		},
	}, {
		name:  "alerts are not applied, and said",
		src:   `{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"on_failure_alert":"down","branches":[{"operator":"default","goto":"b","alert_on_match":"went on"}]}},{"id":"b","handler":"noop"}]}`,
		warns: []string{"transition: on_failure_alert is not applied: contenox sent it to its alert service when the task failed", "branch: alert_on_match is not applied"},
		check: func(c *chain.Chain) bool { return c.Workflow.State("a").Branches[0].Goto == "b" },
	}, {
		name:  "routing_strategy is not applied, and said",
		src:   `{"id":"x","routing_strategy":"low-latency","tasks":[{"id":"a","handler":"noop"}]}`,
		warns: []string{"1:30: warning: routing_strategy is not applied: it chose among the backends serving a model in contenox"},
		check: func(c *chain.Chain) bool { return true },
	}, {
		name:  "local_exec is local_shell, in a model task's tools and a hook call",
		src:   `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["local_exec"]}},{"id":"b","handler":"hook","hook":{"name":"local_exec","args":{"command":"date"}}}]}`,
		warns: []string{"execute_config: hook local_exec is the older name of local_shell: read as local_shell", `task "b": hook local_exec is the older name of local_shell`},
		check: func(c *chain.Chain) bool {
			h := HandlerOf(c.Workflow.State("b").Task)
			return c.Workflow.State("a").Task.Agent().Tools[0] == "Bash" && h.Tool == "Bash" && h.Args["command"] == "date"
		},
	}, {
		// contenox/runtime@7bdaaf86b3: HandleParseScore, HandleParseRange,
		// HandleConditionKey, HandleParseTransition; @e05b625d their
		// prompt_to_ names and parse_command (@eeee5e7a)
		name: "parse_score, parse_range, condition_key and parse_transition are the prompt_to_ handlers and parse_command",
		src: `{"id":"x","tasks":[{"id":"a","handler":"parse_score","transition":{"branches":[{"operator":"default","goto":"b"}]}},
 {"id":"b","handler":"parse_range","transition":{"branches":[{"operator":"default","goto":"c"}]}},
 {"id":"c","handler":"condition_key","valid_conditions":{"yes":true,"no":false},"transition":{"branches":[{"operator":"default","goto":"d"}]}},
 {"id":"d","handler":"parse_transition","valid_conditions":{"x":true}}]}`,
		warns: []string{"handler parse_score is the older name of prompt_to_float", "handler parse_range is the older name of prompt_to_range",
			"handler condition_key is the older name of prompt_to_condition", "handler parse_transition is the older name of parse_command",
			`task "d": valid_conditions is not applied: it is read only by a prompt_to_condition (condition_key) task`},
		check: func(c *chain.Chain) bool {
			w := c.Workflow
			cond := HandlerOf(w.State("c").Task).Conditions
			return HandlerOf(w.State("a").Task).Name == HandlerPromptFloat && HandlerOf(w.State("b").Task).Name == HandlerPromptRange &&
				HandlerOf(w.State("c").Task).Name == HandlerPromptCondition && cond["yes"] && !cond["no"] && len(cond) == 2 &&
				HandlerOf(w.State("d").Task).Name == HandlerParseCommand && w.State("d").Task.Type == string(chain.KindNoop)
		},
	}, {
		// contenox/runtime@abb55f22 taskengine/taskexec.go hookengine:
		// finalTransitionEval "ok" (tools_executed from c5f4c096)
		name: "a hook task's result ok is tools_executed, unless output_template gives it",
		src: `{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"local_shell","args":{"command":"date"}},"transition":{"branches":[{"operator":"equals","when":"ok","goto":"b"},{"operator":"not_equals","when":" ok ","goto":"end"}]}},
 {"id":"b","handler":"tools","tools":{"name":"local_shell","args":{"command":"date"}},"output_template":"ok","transition":{"branches":[{"operator":"equals","when":"ok","goto":"end"}]}}]}`,
		warns: []string{`task "a": when "ok" is the result contenox gave a hook or tools task that succeeded until 2026-06-01 (c5f4c096); the result is now "tools_executed": read as "tools_executed"`},
		check: func(c *chain.Chain) bool {
			a, b := c.Workflow.State("a").Branches, c.Workflow.State("b").Branches
			return a[0].When == ResultToolsExecuted && a[1].When == ResultToolsExecuted && b[0].When == "ok"
		},
	}, {
		// contenox/runtime@7d0a257f runtime/taskengine/tasktype.go Shift
		// ("slide on overflow"), taskexec.go executeLLM: it slides only
		// against token_limit, which chainrun does not apply
		name:  "shift true is said not to be applied",
		src:   "id: x\ntoken_limit: 4096\ntasks:\n  - id: a\n    handler: chat_completion\n    execute_config: {shift: true}\n  - id: b\n    handler: chat_completion\n    execute_config: {shift: false}\n",
		warns: []string{"6:5: warning: task \"a\": execute_config: shift is not applied: contenox dropped a conversation's oldest messages when it outgrew the chain's token_limit"},
		check: func(c *chain.Chain) bool { return true },
	}, {
		// contenox/runtime@e05b625d apitests/test_execute2.py: branches
		// on the answers of a prompt_to_condition task, never its result
		name: "a prompt_to_condition task's branches that match neither true nor false are said never to be taken",
		src: `{"id":"x","tasks":[{"id":"a","handler":"prompt_to_condition","valid_conditions":{"very_long_string":true,"short":true},
  "transition":{"branches":[{"operator":"starts_with","when":"very","goto":"end"},{"operator":"ends_with","when":"rue","goto":"end"},
  {"operator":"contains","when":"long","goto":"end"},{"operator":"not_equals","when":"short","goto":"end"},{"operator":"default","goto":"end"}]}}]}`,
		warns: []string{`starts_with "very": a prompt_to_condition task's result is the value of the answer valid_conditions maps it to, true or false: this branch is not taken`,
			`contains "long": a prompt_to_condition`},
		check: func(c *chain.Chain) bool { return len(HandlerOf(c.Workflow.State("a").Task).Conditions) == 2 },
	}, {
		// contenox/runtime@ee902c72 taskengine/marcoenv.go: hookservice's
		// hooks command renders the hooks' names as JSON, as
		// toolservice:tools without a hook does (@7d0a257f
		// runtime/taskengine/macroenv.go expandOne)
		name:  "{{hookservice:hooks}} and {{toolservice:tools}} are the task's hooks' names",
		src:   `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","system_instruction":"you have {{hookservice:hooks}}; {{toolservice:hooks}} again; {{toolservice:tools}}; {{toolservice:tools local_fs}}","execute_config":{"hooks":["local_shell","local_fs"]}}]}`,
		warns: []string{"macro {{hookservice:hooks}}: hookservice is the older name of toolservice: read as {{toolservice:hooks}}"},
		check: func(c *chain.Chain) bool {
			return strings.HasPrefix(c.Workflow.State("a").Task.Agent().System, `you have ["local_fs","local_shell"]; ["local_fs","local_shell"] again; ["local_fs","local_shell"]; ["Edit","Glob","Grep","Read","Write"]`+"\n")
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := parseChain("x.json", []byte(tt.src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w := warningsOf(l)
			for _, want := range tt.warns {
				if !strings.Contains(w, want) {
					t.Errorf("warnings %q, want %q", w, want)
				}
			}
			if !tt.check(l.Chain) {
				t.Errorf("%+v", l.Chain.Workflow.State("a").Task)
			}
		})
	}
}

// TestTaskChainShellArgs: contenox's local_shell hook runs command as a
// program with args as its words, through a shell only when shell is
// true (contenox/runtime@457b27a9 localhooks/localexec.go parseArgs and
// run); chainrun's Bash gets one command that means the same.
func TestTaskChainShellArgs(t *testing.T) {
	tests := []struct{ args, command, timeout, warn string }{
		{`{"command":"echo","args":"hello; rm -rf x"}`, `echo 'hello;' rm -rf x`, "", `read as the command "echo 'hello;' rm -rf x"`},
		{`{"command":"ls","args":"-la  src","shell":"true","timeout":"5s"}`, `ls -la src`, "5000", `timeout_ms 5000; its standard input is empty`},
		{`{"command":"git log | head -3","shell":"1"}`, `git log | head -3`, "", `contenox answered {exit_code, stdout, stderr, success}`},
		{`{"command":"./my tool","args":"$HOME"}`, `'./my tool' '$HOME'`, "", `read as the command "'./my tool' '$HOME'"`},
		{`{"command":"date","timeout":"soon"}`, `date`, "", `timeout "soon" not a duration, which contenox ignores too`},
		{`{"command":"make","args":["-C","a b"],"cwd":"/src"}`, `cd /src && make -C 'a b'`, "", `read as the command "cd /src && make -C 'a b'"`},
		{`{"command":"printf","args":"'%s;' \"x y\" z"}`, `printf '%s;' 'x y' z`, "", `read as the command "printf '%s;' 'x y' z"`},
	}
	for _, tt := range tests {
		src := `{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"local_shell","args":` + tt.args + `}}]}`
		l, err := parseChain("x.json", []byte(src), chain.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		h := HandlerOf(l.Chain.Workflow.State("a").Task)
		if h.Args["command"] != tt.command || h.Args["timeout_ms"] != tt.timeout || h.Args["args"] != "" || h.Args["shell"] != "" {
			t.Errorf("%s: args %q, want command %q timeout_ms %q", tt.args, h.Args, tt.command, tt.timeout)
		}
		if w := warningsOf(l); !strings.Contains(w, tt.warn) {
			t.Errorf("%s: warnings %q, want %q", tt.args, w, tt.warn)
		}
	}
}

// TestTaskChainEarliestRefused: what contenox's first formats had and
// chainrun has no equal of is refused, exit 2, naming what the older
// name did and why it cannot run.
func TestTaskChainEarliestRefused(t *testing.T) {
	tests := []struct{ src, want string }{
		{`{"id":"x","tasks":[{"id":"a","handler":"condition_key"}]}`,
			`a prompt_to_condition task needs valid_conditions: {ANSWER: true or false, ...}`},
		{"id: x\ntasks:\n  - id: a\n    handler: prompt_to_condition\n    valid_conditions: {yes: true, maybe: 'no'}\n",
			`5:5: task "a": valid_conditions.maybe must be true or false`},
		// contenox/runtime@701d724d docs/api-reference.md: an example
		// whose valid_conditions is a string, which contenox refused too
		{`{"id":"x","tasks":[{"id":"a","handler":"condition_key","valid_conditions":"{\"valid\": true}"}]}`,
			`a prompt_to_condition task needs valid_conditions`},
		{`{"id":"x","tasks":[{"id":"a","handler":"text_to_embedding"}]}`, `chainrun calls no embedding model`},
		{`{"id":"x","tasks":[{"id":"a","handler":"prompt_to_js"}]}`, `chainrun has no JavaScript runtime`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","compose":{"with_var":"input","strategy":"override"}}]}`,
			`compose on a task is an earlier contenox format's (it merged with_var into the task's output`},
		{`{"id":"x","routing_strategy":"fastest","tasks":[{"id":"a","handler":"noop"}]}`, `routing_strategy "fastest" is not one contenox had`},
		{`{"id":"x","tasks":[{"id":"a","type":"noop","handler":"noop"}]}`, `type and handler are one field (type is its older name): write only handler`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["js_execution"]}}]}`,
			`tool hook "js_execution" is not supported (js_execution is running JavaScript in contenox's sandbox`},
		// contenox/runtime@457b27a9 localhooks/echo.go, print.go: a tools
		// task calls them (TestContenoxTestHooksRun); a model is not offered them
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["echo"]}}]}`,
			`tool hook "echo" is not supported (echo is contenox's test hook that answers its input, which a tools task calls but no model is offered`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["local_fs","print"]}}]}`,
			`tool hook "print" is not supported (print is contenox's hook that answers its message argument, which a tools task calls but no model is offered`},
		{`{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"ping-pong"}}]}`,
			`tool hook "ping-pong" is not supported (ping-pong is no hook contenox built in: a remote hook or MCP server registered with a contenox server`},
		{`{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"local_shell","args":{"args":"-la"}}}]}`,
			`tools.args: args, shell, cwd and timeout go with a command`},
		// contenox/runtime@abb55f22 website-docs/cookbook/release-notes.md:
		// an output_template over local_shell's LocalExecResult
		{`{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"local_shell","args":{"command":"git log","shell":"true"}},"output_template":"{{.Stdout}}"}]}`,
			`output_template reads .Stdout of the record contenox's local_shell answers`},
		{`{"id":"x","tasks":[{"id":"a","handler":"tools","tools":{"name":"local_shell","tool_name":"local_shell","args":{"command":"make"}},"output_template":"{{if .success}}built{{else}}{{.stderr | printf \"%s\"}}{{end}}"}]}`,
			`output_template reads .success of the record`},
		{`{"id":"x","tasks":[{"id":"a","handler":"tools","tools":{"name":"local_shell","args":{"command":"ls"}},"output_template":"{{range .}}{{with .ExitCode}}{{.}}{{end}}{{end}}"}]}`,
			`output_template reads .ExitCode of the record`},
	}
	for _, tt := range tests {
		_, err := parseChain("x.json", []byte(tt.src), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.src, err, tt.want)
		}
	}
}

// TestTaskChainShellOutputTemplate: a local_shell tools task whose
// output_template reads the command's text loads; another hook's record
// fields are its own.
func TestTaskChainShellOutputTemplate(t *testing.T) {
	for _, src := range []string{
		`{"id":"x","tasks":[{"id":"a","handler":"tools","tools":{"name":"local_shell","args":{"command":"date"}},"output_template":"today: {{.}}"}]}`,
		`{"id":"x","tasks":[{"id":"a","handler":"tools","tools":{"name":"oracle","tool_name":"verdict_state"},"output_template":"{{if eq .state \"settled\"}}settled{{else}}{{.text}}{{end}}"}]}`,
	} {
		if _, err := parseChain("x.json", []byte(src), chain.Options{}); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestTaskChainOlderComposeOneReason: a branch's compose of an earlier
// strategy names the variable it merged in (examples/simple-chat-with-
// moderation.json of contenox/runtime@c58406a4 merges the chain's input),
// in one error: its with_var is not a variable to store, so its name is
// not complained of.
func TestTaskChainOlderComposeOneReason(t *testing.T) {
	for _, with := range []string{"input", "previous_output", "task-1"} {
		src := `{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"branches":[{"operator":"default","goto":"end","compose":{"with_var":"` + with + `","strategy":"append_string_to_chat_history"}}]}}]}`
		_, err := parseChain("x.json", []byte(src), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), `compose.strategy "append_string_to_chat_history" (with_var "`+with+`") is not supported: it is an earlier contenox strategy that merged the variable `+with) {
			t.Errorf("%s: err = %v", with, err)
		}
		if err != nil && strings.Contains(err.Error(), "a variable name is") {
			t.Errorf("%s: with_var's name complained of: %v", with, err)
		}
	}
}
