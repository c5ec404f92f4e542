package chain

import (
	"slices"
	"strings"
	"text/template"
)

// Handler is how a task of a contenox task chain runs: the engine runs it
// in place of its step kind's body, so that a chat turn, a tool-call
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

// taskHandlers are the handlers a task may name, for messages.
var taskHandlers = []string{HandlerChat, HandlerRoute, HandlerExecute, HandlerTools, HandlerNoop, HandlerRaise, HandlerPromptString, HandlerPromptInt,
	HandlerPromptFloat, HandlerPromptRange, HandlerPromptCondition, HandlerParseCommand, HandlerParseKeyValue, HandlerOpenAIResponse}

// promptHandlers are the handlers that ask the model once about the
// task's input and read its answer.
var promptHandlers = []string{HandlerPromptString, HandlerPromptInt, HandlerPromptFloat, HandlerPromptRange, HandlerPromptCondition}

// IsPromptHandler reports whether a handler is one of the prompt_to_
// handlers: one model call on the input, no tools, its answer read.
func IsPromptHandler(handler string) bool { return slices.Contains(promptHandlers, handler) }

// asksOnce reports whether a handler asks the model once, offering no
// tools: route and the prompt_to_ handlers.
func asksOnce(handler string) bool {
	return handler == HandlerRoute || IsPromptHandler(handler)
}

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

// goTemplate parses a task's Go template (prompt_template, print,
// output_template); "" is none. A template that does not parse, or calls
// a function chainrun does not have, is an error at the field.
func (tc *taskChain) goTemplate(at Pos, prefix, field, text string) *template.Template {
	if text == "" {
		return nil
	}
	t, err := template.New(field).Funcs(templateFuncs).Parse(text)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "template: ")
		if strings.Contains(msg, "not defined") {
			msg += " (a task chain's templates have Go's own functions and Sprig's text, list and default ones: upper, lower, trim, replace, contains, join, list, default, toJson, trunc, …; not Sprig's env, crypto, date, regex, dict or semver functions)"
		}
		// msg begins with the field and the template's line: print:1:
		tc.d.Errorf(at, "%s%s", prefix, msg)
		return nil
	}
	return t
}
