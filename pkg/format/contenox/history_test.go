package contenox

import (
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestTaskChainOlderNames: files written for earlier versions of
// contenox's format (contenox/runtime@4d29195674c3 taskengine/tasktype.go:
// ExecuteConfig.Hooks, HookPolicies, handler hook with its HookCall) load
// as the newer names, each with a warning naming both.
func TestTaskChainOlderNames(t *testing.T) {
	tests := []struct {
		name, src, warn string
		check           func(*chain.Chain) bool
	}{{
		name: "hooks is tools",
		src:  `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["local_shell"]}}]}`,
		warn: "execute_config: hooks is the older name of tools: read as tools",
		check: func(c *chain.Chain) bool {
			return slices.Equal(c.Workflow.State("a").Task.Agent().Tools, []string{"Bash"})
		},
	}, {
		name: "hooks of an execute_tool_calls task, with * and an exception",
		src:  `{"id":"x","tasks":[{"id":"a","handler":"execute_tool_calls","execute_config":{"hooks":["*","!local_shell"]}}]}`,
		warn: "hooks is the older name of tools",
		check: func(c *chain.Chain) bool {
			return slices.Equal(c.Workflow.State("a").Task.Agent().Tools, []string{"Read", "Write", "Edit", "Glob", "Grep"})
		},
	}, {
		name: "hook_policies is tools_policies, and its command lists hold Bash",
		src: `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["local_shell"],
  "hook_policies":{"local_shell":{"_allowed_commands":"git, ls","_denied_commands":"rm"}}}}]}`,
		warn: "hook_policies is the older name of tools_policies: read as tools_policies",
		check: func(c *chain.Chain) bool {
			h := HandlerOf(c.Workflow.State("a").Task)
			return slices.Equal(h.AllowedCommands, []string{"git", "ls"}) && slices.Equal(h.DeniedCommands, []string{"rm"})
		},
	}, {
		name: "hook_policies of a policy chainrun does not apply is still said",
		src:  "id: x\ntasks:\n  - id: a\n    handler: execute_tool_calls\n    execute_config:\n      hook_policies: {local_fs: {_allowed_dir: /tmp}}\n",
		warn: "tools_policies.local_fs (_allowed_dir) is not applied",
		check: func(c *chain.Chain) bool {
			return slices.Equal(HandlerOf(c.Workflow.State("a").Task).UnappliedPolicies, []string{"local_fs (_allowed_dir)"})
		},
	}, {
		name: "handler hook with hook: is a tools task",
		src:  `{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"local_shell","tool_name":"local_shell","args":{"command":"date"}}}]}`,
		warn: "handler hook is the older name of tools: its hook: is read as tools:",
		check: func(c *chain.Chain) bool {
			h := HandlerOf(c.Workflow.State("a").Task)
			return h.Name == HandlerTools && h.Hook == HookLocalShell && h.Tool == "Bash" && h.Args["command"] == "date"
		},
	}, {
		name: "{{hookservice:list}} is {{toolservice:list}}",
		src:  `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","system_instruction":"hooks: {{hookservice:list}}","execute_config":{"tools":["local_shell"]}}]}`,
		warn: "macro {{hookservice:list}}: hookservice is the older name of toolservice",
		check: func(c *chain.Chain) bool {
			return strings.Contains(c.Workflow.State("a").Task.Agent().System, `"local_shell":["Bash"]`)
		},
	}, {
		name: "when tool-call (reference 003's spelling) is tool_call",
		src:  `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","transition":{"branches":[{"operator":"equals","when":"tool-call","goto":"end"},{"operator":"not_equals","when":"tool-call","goto":"end"}]}}]}`,
		warn: `when "tool-call" is the older spelling of "tool_call"`,
		check: func(c *chain.Chain) bool {
			b := c.Workflow.State("a").Branches
			return b[0].When == ResultToolCall && b[1].When == ResultToolCall
		},
	}, {
		// contenox/runtime@4d29195674c3 taskengine/tasktype.go: OpGreaterThan
		// ">", OpGt, OpLessThan "<", OpLt, OpInRange
		name: "the operators >, gt, <, lt and in_range are ranges",
		src: `{"id":"x","tasks":[{"id":"a","handler":"prompt_to_int","transition":{"branches":[{"operator":">","when":"6","goto":"end"},
 {"operator":"lt","when":"-2","goto":"end"},{"operator":"in_range","when":"3-5","goto":"end"},{"operator":"in_range","when":"-4,-1","goto":"end"}]}}]}`,
		warn: `operator ">" is of an earlier contenox format: read as range "6.000000000000001,+Inf"`,
		check: func(c *chain.Chain) bool {
			var got []string
			for _, b := range c.Workflow.State("a").Branches {
				got = append(got, b.Operator+" "+b.When)
				if !b.Take("7", nil) && !b.Take("-3", nil) && !b.Take("4", nil) && !b.Take("-1", nil) {
					return false
				}
			}
			b := c.Workflow.State("a").Branches
			return slices.Equal(got, []string{"range 6.000000000000001,+Inf", "range -Inf,-2.0000000000000004", "range 3,5", "range -4,-1"}) &&
				!b[0].Take("6", nil) && b[0].Take("7", nil) && !b[1].Take("-2", nil) && b[2].Take("5", nil) && !b[2].Take("6", nil)
		},
	}, {
		name: "reference 003's results stop and ok, which the engine never gives, are said",
		src: `{"id":"x","tasks":[{"id":"a","handler":"chat_completion","transition":{"branches":[{"operator":"equals","when":"stop","goto":"b"},{"operator":"default","goto":"end"}]}},
 {"id":"b","handler":"execute_tool_calls","transition":{"branches":[{"operator":"equals","when":"ok","goto":"end"}]}}]}`,
		warn: `when "stop" is never the result of a chat_completion task: reference 003 names it, the engine gives executed; this branch is not taken`,
		check: func(c *chain.Chain) bool {
			return c.Workflow.State("a").Branches[0].When == "stop"
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := parseChain("x.json", []byte(tt.src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if w := warningsOf(l); !strings.Contains(w, tt.warn) {
				t.Errorf("warnings %q, want %q", w, tt.warn)
			}
			if !tt.check(l.Chain) {
				t.Errorf("%+v", l.Chain.Workflow.State("a").Task)
			}
		})
	}
}

// TestTaskChainOlderFeaturesRefused: what earlier contenox versions had
// and chainrun has no equal of is refused, naming what is missing and
// why.
func TestTaskChainOlderFeaturesRefused(t *testing.T) {
	tests := []struct{ src, want string }{
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"compact_policy":{"trigger_fraction":0.8,"keep_recent":6,"model":"m"}}}]}`,
			`execute_config: compact_policy is not supported: chainrun does not compact a model task's conversation`},
		{"id: x\ntasks:\n  - id: a\n    handler: chat_completion\n    execute_config:\n      compact_policy: {keep_recent: 2}\n",
			`5:5: task "a": execute_config: compact_policy is not supported`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["tools"],"tools":["local_fs"]}}]}`,
			`execute_config: hooks and tools are one field (hooks is its older name): write only tools`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["webtools"]}}]}`,
			`tool hook "webtools" is not supported (webtools is fetching and searching the web`},
		{`{"id":"x","tasks":[{"id":"a","handler":"hook","hook":{"name":"ntfy","tool_name":"send"}}]}`,
			`tool hook "ntfy" is not supported (ntfy is push notifications`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","execute_config":{"hooks":["plan_summary"]}}]}`,
			`tool hook "plan_summary" is not supported (plan_summary is contenox's plan service`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop"},{"id":"s","handler":"noop","input_var":"__exec_terminal__"}]}`,
			`input_var "__exec_terminal__" is not supported: it is a placeholder of contenox's plan compiler`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"branches":[{"operator":"gt","when":"many","goto":"end"}]}}]}`,
			`operator "gt" (greater or less than, of an earlier contenox format): when "many" is not a number`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","hook":{"name":"local_fs"}}]}`,
			`hook: is the call of a hook task`},
	}
	for _, tt := range tests {
		_, err := parseChain("x.json", []byte(tt.src), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.src, err, tt.want)
		}
	}
}
