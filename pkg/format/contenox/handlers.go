package contenox

import (
	"slices"
	"strings"
	"text/template"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// taskHandlers are the handlers a task may name, for messages.
var taskHandlers = []string{HandlerChat, HandlerRoute, HandlerExecute, HandlerTools, HandlerNoop, HandlerRaise, HandlerPromptString, HandlerPromptInt,
	HandlerPromptFloat, HandlerPromptRange, HandlerPromptCondition, HandlerParseCommand, HandlerParseKeyValue, HandlerOpenAIResponse}

// promptHandlers are the handlers that ask the model once about the
// task's input and read its answer.
var promptHandlers = []string{HandlerPromptString, HandlerPromptInt, HandlerPromptFloat, HandlerPromptRange, HandlerPromptCondition}

// asksOnce reports whether a handler asks the model once, offering no
// tools: route and the prompt_to_ handlers (one model call on the input,
// its answer read).
func asksOnce(handler string) bool {
	return handler == HandlerRoute || slices.Contains(promptHandlers, handler)
}

// goTemplate parses a task's Go template (prompt_template, print,
// output_template); "" is none. A template that does not parse, or calls
// a function chainrun does not have, is an error at the field.
func (tc *taskChain) goTemplate(at yamlpos.Pos, prefix, field, text string) *template.Template {
	if text == "" {
		return nil
	}
	t, err := template.New(field).Funcs(templateFuncs()).Parse(text)
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
