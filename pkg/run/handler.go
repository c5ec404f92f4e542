package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
)

// The variables a task chain's tasks share besides their outputs.
const (
	// previousOutput is the output of the task that ran before.
	previousOutput = "previous_output"
	// lastError is the error of the last task that failed.
	lastError = "last_error"
	// hookVar holds what the hooks of the running task recorded, until
	// the flow merges it into the context (mergeHooks).
	hookVar = "#hooks"
)

// chatVar is the variable that holds the conversation behind a task's
// output: no template can name it, and it is saved with the task.
func chatVar(name string) string { return name + "#chat" }

// internalVar reports whether a variable is the engine's own (a
// conversation, what hooks recorded), kept out of the result's vars.
func internalVar(name string) bool { return strings.Contains(name, "#") }

// taskIn is what a task chain's task reads: a value and, when the value
// came from a model task, the conversation behind it.
type taskIn struct {
	value Value
	chat  []chatMsg
}

// handle runs a task of a contenox task chain (or a hook tool's call) as
// its handler says (chain.Handler). A failed task leaves its input as its
// output and its error in TASK_error and last_error, for the task its
// on_failure leads to.
func (x *execution) handle(ctx context.Context, s *chain.Step, sc scope, t *tries) (outcome, error) {
	h := s.Handler
	if h.Name == chain.HandlerHook {
		return x.hookTool(ctx, s, sc)
	}
	x.warnUnapplied(s)
	in, err := x.taskInput(s, sc)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	var out outcome
	switch h.Name {
	case chain.HandlerChat:
		out, err = x.chatTurn(ctx, s, sc, t, in)
	case chain.HandlerRoute:
		out, err = x.route(ctx, s, sc, t, in)
	case chain.HandlerPromptString, chain.HandlerPromptInt, chain.HandlerPromptFloat, chain.HandlerPromptRange, chain.HandlerPromptCondition:
		out, err = x.promptTask(ctx, s, sc, t, in)
	case chain.HandlerParseCommand:
		out, err = x.parseCommand(ctx, s, in)
	case chain.HandlerParseKeyValue:
		out, err = x.parseKeyValue(s, in)
	case chain.HandlerOpenAIResponse:
		out, err = x.openAIResponse(s, in)
	case chain.HandlerExecute:
		out, err = x.executeCalls(ctx, s, sc, in)
	case chain.HandlerTools:
		out, err = x.toolsTask(ctx, s, sc, in)
	case chain.HandlerNoop:
		out = x.pass(s, in, chain.ResultNoop)
	case chain.HandlerRaise:
		msg := strings.TrimSpace(in.text())
		if msg == "" {
			msg = "raise_error: task " + s.ID
		}
		// contenox retries any failed task, a raised error too, up to
		// its retry_on_failure
		err = errors.New(msg)
	default:
		err = &permanentError{fmt.Errorf("handler %q is not one chainrun can run", h.Name)}
	}
	if err != nil {
		left := failureInput(s.ID, in, err)
		x.st.set(s.OutputVar, left.value)
		x.setChat(s, left.chat)
		x.st.set(s.OutputVar+"_error", TextValue(err.Error()))
		x.st.set(lastError, TextValue(err.Error()))
		return out, err
	}
	if h.Print != nil {
		text, perr := renderGo(h.Print, x.templateVars(sc))
		if perr != nil {
			return out, &permanentError{fmt.Errorf("print: %w", perr)}
		}
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			x.emit(event.Event{Type: event.StepLog, Step: s.ID, Stream: "print", Line: line})
		}
	}
	return out, nil
}

// pass is a task's outcome that passes its input on (noop, route).
func (x *execution) pass(s *chain.Step, in taskIn, result string) outcome {
	x.setChat(s, in.chat)
	return outcome{value: in.value, result: result}
}

// text is what a model reads of the input: its text, or the last
// message of its conversation.
func (in taskIn) text() string {
	if n := len(in.chat); n > 0 && in.value.Text == "" {
		return in.chat[n-1].Content
	}
	return in.value.Text
}

// taskInput reads the variable the task's input_var names (the output of
// the task before, without one); prompt_template, when set, replaces it
// with its text; input_max_bytes caps it.
func (x *execution) taskInput(s *chain.Step, sc scope) (taskIn, error) {
	h := s.Handler
	var in taskIn
	name := h.Input
	if name == "" {
		name = previousOutput
	}
	if v, ok := sc.lookup(name); ok && name != chain.InputVar {
		in.value = v
		if c, ok := sc.lookup(chatVar(name)); ok {
			in.chat = decodeChat(c.Data)
		}
	} else if name == chain.InputVar || name == previousOutput {
		in.value = TextValue(sc.st.inputs[chain.InputVar])
	} else {
		return in, fmt.Errorf("input_var %s has no value: that task has not run yet", name)
	}
	if h.Prompt != nil {
		text, err := renderGo(h.Prompt, x.templateVars(sc))
		if err != nil {
			return in, fmt.Errorf("prompt_template: %w", err)
		}
		in = taskIn{value: TextValue(text)}
	}
	if n := h.MaxInputBytes; n > 0 {
		if len(in.value.Text) > n {
			in.value = Value{Text: capText(in.value.Text, n)}
		}
		in.chat = capChat(in.chat, n)
	}
	return in, nil
}

// setChat keeps the conversation behind the task's output (none: the
// output is plain text).
func (x *execution) setChat(s *chain.Step, chat []chatMsg) {
	if chat == nil {
		x.st.del(chatVar(s.OutputVar))
		return
	}
	x.st.set(chatVar(s.OutputVar), Value{Data: encodeChat(chat)})
}

// templateVars are what a task chain's Go templates read: the chain's
// input as .input, every task's output by its variable and by its id
// (structured when it is JSON), previous_output, last_error, TASK_error
// and the edge counters.
func (x *execution) templateVars(sc scope) map[string]any {
	vars := map[string]any{}
	sc.st.mu.RLock()
	for k, v := range sc.st.vars {
		if !internalVar(k) && k != contextVar {
			vars[k] = v.Public()
		}
	}
	sc.st.mu.RUnlock()
	for k, v := range sc.local {
		vars[k] = v.Public()
	}
	for _, s := range x.c.Steps {
		if s.Handler != nil && s.ID != s.OutputVar {
			if v, ok := vars[s.OutputVar]; ok {
				vars[s.ID] = v
			}
		}
	}
	vars[chain.InputVar] = sc.st.inputs[chain.InputVar]
	return vars
}

// renderGo renders a task chain's Go template.
func renderGo(t *template.Template, data any) (string, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

// planHandler is a task chain task's dry-run line: what its handler does.
func planHandler(s *chain.Step, p *PlannedStep) {
	h := s.Handler
	if h == nil {
		return
	}
	from := "the output of the task before"
	switch h.Input {
	case "":
	case chain.InputVar:
		from = "the chain's input"
	default:
		from = h.Input
	}
	switch h.Name {
	case chain.HandlerChat:
		if h.Prompt == nil {
			p.Action = from
		}
		p.Action, p.MaxTurns = "one model turn on "+p.Action, 0
	case chain.HandlerParseCommand:
		p.Action = "the /command " + from + " begins with is the result; it passes on"
	case chain.HandlerParseKeyValue:
		p.Action = "the key=value pairs of " + from + " become an object"
	case chain.HandlerPromptString, chain.HandlerPromptInt, chain.HandlerPromptFloat, chain.HandlerPromptRange, chain.HandlerPromptCondition:
		on := from
		if h.Prompt != nil {
			on = "its prompt_template"
		}
		p.Action, p.MaxTurns = "one model call on "+on+", its answer the output", 0
		p.Action += answerWords[h.Name]
	case chain.HandlerOpenAIResponse:
		p.Action = "the conversation of " + from + " becomes an OpenAI chat-completion object"
	case chain.HandlerRoute:
		p.Action = "the model picks " + strings.Join(h.Routes, ", ") + " for " + from + "; it passes on unchanged"
	case chain.HandlerExecute:
		p.Action, p.Tools = "run the tool calls of "+from, slices.Clone(s.Agent().Tools)
	case chain.HandlerTools:
		p.Action = "call " + h.Hook + " " + h.Tool
	case chain.HandlerNoop:
		p.Action = "pass " + from + " on"
	case chain.HandlerRaise:
		p.Action = "fail with " + from + " as the error"
	}
}
