package contenox

import (
	"text/template"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Handler is how a task of a contenox task chain runs (a chain.Handler:
// this front-end sets it on the task's step, pkg/kind/contenox runs it):
// the engine runs it in place of its step kind's body, so that a chat turn, a tool-call
// batch, a route, a hook call, a noop or a raised error behave as contenox
// defines them while models, retries, timeouts, events and the journal
// stay chainrun's. The step's kind says only what it needs: agent for a
// model task (its models are checked before the run), noop otherwise.
type Handler struct {
	// Name is the task's handler (HandlerChat, …), or HandlerHook on the
	// executor of a hook's tool.
	Name string
	// Input is the variable the task reads: "" for the output of the task
	// that ran before it (the chain's input for the first task),
	// InputVar for the chain's input, else a task's output variable,
	// last_error or TASK_error.
	Input string
	// Prompt is prompt_template, Print print and Output a tools task's
	// output_template: Go templates over the run's variables (Output over
	// the hook's answer), parsed when the chain loads.
	Prompt, Print, Output *template.Template
	// Routes are a route task's labels: the when of its equals branches.
	Routes []string
	// Conditions are a prompt_to_condition task's answers and the
	// result each gives (valid_conditions).
	Conditions map[string]bool
	// Hook and Tool name the hook tool a tools task calls (or a hook
	// tool's executor runs); Args are a tools task's arguments.
	Hook, Tool string
	Args       map[string]string
	// MaxInputBytes caps the input the task reads (input_max_bytes).
	MaxInputBytes int
	// AllowedCommands and DeniedCommands are the programs the task's
	// Bash calls may run (tools_policies of local_shell): nil
	// AllowedCommands allows any the deny list does not name.
	AllowedCommands, DeniedCommands []string
	// UnappliedPolicies are the tools_policies chainrun does not apply,
	// each "hook (key, …)", for the run's warnings.
	UnappliedPolicies []string
}

// HandlerName is the task's handler, for the engine's messages.
func (h *Handler) HandlerName() string { return h.Name }

// HandlerOf is the handler of step s, nil when it has none (or one this
// front-end did not set).
func HandlerOf(s *chain.Step) *Handler {
	h, _ := s.Handler.(*Handler)
	return h
}

// The handlers of contenox task chains.
const (
	HandlerChat    = "chat_completion"
	HandlerRoute   = "route"
	HandlerExecute = "execute_tool_calls"
	HandlerTools   = "tools"
	HandlerNoop    = "noop"
	HandlerRaise   = "raise_error"
	// HandlerPromptString and HandlerPromptInt are handlers of earlier
	// contenox versions: one model call on the task's input, whose
	// answer is the output and the result (prompt_to_int: the answer
	// read as an integer, or the task fails).
	HandlerPromptString = "prompt_to_string"
	HandlerPromptInt    = "prompt_to_int"
	// HandlerPromptFloat, HandlerPromptRange and HandlerPromptCondition
	// are too (contenox from 2025-11-08 to 2026-04-20): the answer read
	// as a number, as a range "min-max" (one number n is "n-n"), or as
	// one of the task's Conditions, whose value (true or false) is the
	// output and the result.
	HandlerPromptFloat     = "prompt_to_float"
	HandlerPromptRange     = "prompt_to_range"
	HandlerPromptCondition = "prompt_to_condition"
	// HandlerParseCommand is too: no model; the result is the /command
	// the input begins with (without its /), else "pass"; the input
	// passes on.
	HandlerParseCommand = "parse_command"
	// HandlerParseKeyValue is too: no model; "k=v, k2: v2" pairs of the
	// input (split at ;, else newlines, else commas) become an object,
	// result "parsed"; an input that is an object already passes on,
	// result "already_json".
	HandlerParseKeyValue = "parse_key_value"
	// HandlerOpenAIResponse is too: no model; the input conversation's
	// last message becomes an OpenAI chat-completion object (id, object
	// "chat.completion", created, model, choices, usage), result
	// ResultConverted.
	HandlerOpenAIResponse = "convert_to_openai_chat_response"
	// HandlerHook is the executor of a hook's tool, called from a model's
	// tool call.
	HandlerHook = "hook"
)

// InputVar is the variable that holds a task chain's input.
const InputVar = "input"

// The results a task chain's branches match besides a route's label and
// a tools task's rendered output_template (contenox's control tokens).
const (
	ResultToolCall      = "tool_call"
	ResultExecuted      = "executed"
	ResultNoop          = "noop"
	ResultNoCallsFound  = "no_calls_found"
	ResultToolsExecuted = "tools_executed"
	ResultConverted     = "converted"
)

// A hook is a contenox tools-provider a task chain names: in a model
// task's execute_config.tools (its tools are offered to the model) or in a
// tools task (one of its tools is called directly). chainrun has four:
// local_fs and local_shell are its built-in file and shell tools; mission
// and oracle keep their record in the run's context (pkg/kind/contenox's
// hooks.go says how). The engine reads these names; the front-end
// (pkg/format/contenox) writes them.
const (
	HookLocalFS    = "local_fs"
	HookLocalShell = "local_shell"
	HookMission    = "mission"
	HookOracle     = "oracle"
	// HookEcho and HookPrint are contenox's test hooks, which a tools
	// task calls (no model is offered them): echo answers its input (a
	// conversation with "Echo: " and its last user message), print its
	// message argument (a conversation with it as a system message).
	HookEcho  = "echo"
	HookPrint = "print"
)

// The tools of the mission and oracle hooks.
const (
	ToolMissionPlan   = "mission_plan"
	ToolMissionReport = "mission_report"
	ToolMissionFinish = "mission_finish"
	ToolMissionAsk    = "mission_ask_attention"
	ToolSubmitVerdict = "submit_verdict"
	ToolVerdictState  = "verdict_state"
)

// HookArgName is the name a built-in tool gives a tools task's argument:
// contenox's path is the file tools' file_path; other names are as
// written.
func HookArgName(tool, arg string) string {
	if arg == "path" && (tool == "Read" || tool == "Write" || tool == "Edit") {
		return "file_path"
	}
	return arg
}
