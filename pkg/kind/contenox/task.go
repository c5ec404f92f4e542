package contenox

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
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/run"
)

// Every step with a handler (a task of a contenox task chain, a hook
// tool's call) runs here, whatever its kind, and its dry-run line says
// what its handler does after its kind's line.
func init() {
	run.RegisterHandlerRunner(run.Runner{Run: handle, Plan: planHandler})
}

// taskIn is what a task chain's task reads: a value and, when the value
// came from a model task, the conversation behind it.
type taskIn struct {
	value interp.Value
	chat  []chatMsg
}

// handle runs a task of a contenox task chain (or a hook tool's call) as
// its handler says (cx.Handler). A failed task leaves its input as its
// output and its error in TASK_error and last_error, for the task its
// on_failure leads to.
func handle(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	h := cx.HandlerOf(s)
	if h.Name == cx.HandlerHook {
		return hookTool(ctx, a)
	}
	warnUnapplied(a)
	in, err := taskInput(a)
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	var out run.Outcome
	switch h.Name {
	case cx.HandlerChat:
		out, err = chatTurn(ctx, a, in)
	case cx.HandlerRoute:
		out, err = route(ctx, a, in)
	case cx.HandlerPromptString, cx.HandlerPromptInt, cx.HandlerPromptFloat, cx.HandlerPromptRange, cx.HandlerPromptCondition:
		out, err = promptTask(ctx, a, in)
	case cx.HandlerParseCommand:
		out, err = parseCommand(ctx, a, in)
	case cx.HandlerParseKeyValue:
		out, err = parseKeyValue(a, in)
	case cx.HandlerOpenAIResponse:
		out, err = openAIResponse(a, in)
	case cx.HandlerExecute:
		out, err = executeCalls(ctx, a, in)
	case cx.HandlerTools:
		out, err = toolsTask(ctx, a, in)
	case cx.HandlerNoop:
		out = pass(a, in, cx.ResultNoop)
	case cx.HandlerRaise:
		msg := strings.TrimSpace(in.text())
		if msg == "" {
			msg = "raise_error: task " + s.ID
		}
		// contenox retries any failed task, a raised error too, up to
		// its retry_on_failure
		err = errors.New(msg)
	default:
		err = run.Permanent(fmt.Errorf("handler %q is not one chainrun can run", h.Name))
	}
	if err != nil {
		left := failureInput(s.ID, in, err)
		a.Vars().Set(s.OutputVar, left.value)
		setChat(a, left.chat)
		a.Vars().Set(s.OutputVar+"_error", interp.TextValue(err.Error()))
		a.Vars().Set(record.LastError, interp.TextValue(err.Error()))
		return out, err
	}
	if h.Print != nil {
		text, perr := renderGo(h.Print, templateVars(a))
		if perr != nil {
			return out, run.Permanent(fmt.Errorf("print: %w", perr))
		}
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			a.Emit(event.Event{Type: event.StepLog, Step: s.ID, Stream: "print", Line: line})
		}
	}
	return out, nil
}

// pass is a task's outcome that passes its input on (noop, route).
func pass(a *run.Attempt, in taskIn, result string) run.Outcome {
	setChat(a, in.chat)
	return run.Outcome{Value: in.value, Result: result}
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
func taskInput(a *run.Attempt) (taskIn, error) {
	h := cx.HandlerOf(a.Step())
	var in taskIn
	name := h.Input
	if name == "" {
		name = record.PreviousOutput
	}
	if v, ok := a.Lookup(name); ok && name != cx.InputVar {
		in.value = v
		if c, ok := a.Lookup(record.ChatVar(name)); ok {
			in.chat = decodeChat(c.Data)
		}
	} else if name == cx.InputVar || name == record.PreviousOutput {
		in.value = interp.TextValue(a.Input(cx.InputVar))
	} else {
		return in, fmt.Errorf("input_var %s has no value: that task has not run yet", name)
	}
	if h.Prompt != nil {
		text, err := renderGo(h.Prompt, templateVars(a))
		if err != nil {
			return in, fmt.Errorf("prompt_template: %w", err)
		}
		in = taskIn{value: interp.TextValue(text)}
	}
	if n := h.MaxInputBytes; n > 0 {
		if len(in.value.Text) > n {
			in.value = interp.Value{Text: capText(in.value.Text, n)}
		}
		in.chat = capChat(in.chat, n)
	}
	return in, nil
}

// setChat keeps the conversation behind the task's output (none: the
// output is plain text).
func setChat(a *run.Attempt, chat []chatMsg) {
	s := a.Step()
	if chat == nil {
		a.Vars().Del(record.ChatVar(s.OutputVar))
		return
	}
	a.Vars().Set(record.ChatVar(s.OutputVar), interp.Value{Data: encodeChat(chat)})
}

// templateVars are what a task chain's Go templates read: the chain's
// input as .input, every task's output by its variable and by its id
// (structured when it is JSON), previous_output, last_error, TASK_error
// and the edge counters.
func templateVars(a *run.Attempt) map[string]any {
	vars := map[string]any{}
	for k, v := range a.Values() {
		vars[k] = v.Public()
	}
	for _, s := range a.Chain().Steps {
		if cx.HandlerOf(s) != nil && s.ID != s.OutputVar {
			if v, ok := vars[s.OutputVar]; ok {
				vars[s.ID] = v
			}
		}
	}
	vars[cx.InputVar] = a.Input(cx.InputVar)
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
func planHandler(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
	h := cx.HandlerOf(s)
	if h == nil {
		return
	}
	from := "the output of the task before"
	switch h.Input {
	case "":
	case cx.InputVar:
		from = "the chain's input"
	default:
		from = h.Input
	}
	switch h.Name {
	case cx.HandlerChat:
		if h.Prompt == nil {
			p.Action = from
		}
		p.Action, p.MaxTurns = "one model turn on "+p.Action, 0
	case cx.HandlerParseCommand:
		p.Action = "the /command " + from + " begins with is the result; it passes on"
	case cx.HandlerParseKeyValue:
		p.Action = "the key=value pairs of " + from + " become an object"
	case cx.HandlerPromptString, cx.HandlerPromptInt, cx.HandlerPromptFloat, cx.HandlerPromptRange, cx.HandlerPromptCondition:
		on := from
		if h.Prompt != nil {
			on = "its prompt_template"
		}
		p.Action, p.MaxTurns = "one model call on "+on+", its answer the output", 0
		p.Action += answerWords[h.Name]
	case cx.HandlerOpenAIResponse:
		p.Action = "the conversation of " + from + " becomes an OpenAI chat-completion object"
	case cx.HandlerRoute:
		p.Action = "the model picks " + strings.Join(h.Routes, ", ") + " for " + from + "; it passes on unchanged"
	case cx.HandlerExecute:
		p.Action, p.Tools = "run the tool calls of "+from, slices.Clone(s.Agent().Tools)
	case cx.HandlerTools:
		p.Action = "call " + h.Hook + " " + h.Tool
	case cx.HandlerNoop:
		p.Action = "pass " + from + " on"
	case cx.HandlerRaise:
		p.Action = "fail with " + from + " as the error"
	}
}
