package contenox

import (
	"fmt"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// What a contenox task reads: its input_var, and the words a dry run
// says it in.

// execTerminal is the input_var a contenox summarizer chain reads, which
// its plan compiler rewrites when it splices the chain in.
const execTerminal = "__exec_terminal__"

// inputVar is the variable a task reads: "" for the output of the task
// that ran before it (input_var unset or previous_output), InputVar, or a
// task's output variable (or its error, TASK_error and last_error).
func (tc *taskChain) inputVar(k *taskKeys, at yamlpos.Pos, prefix string) string {
	switch name := k.InputVar; {
	case name == "" || name == "previous_output":
		return ""
	case name == InputVar:
		return InputVar
	case tc.ids[name]:
		return taskVar(name)
	case name == "last_error":
		return name
	case name == execTerminal:
		tc.d.Errorf(at, "%sinput_var %q is not supported: it is a placeholder of contenox's plan compiler, which splices a summarizer chain after an executor chain and rewrites it to the executor's last task; chainrun runs a chain as it is written and compiles no plans: give the summarizing task the id of the task whose output it reads", prefix, name)
		return name
	case strings.HasSuffix(name, "_error") && tc.ids[strings.TrimSuffix(name, "_error")]:
		return taskVar(strings.TrimSuffix(name, "_error")) + "_error"
	default:
		ids := make([]string, 0, len(tc.ids))
		for id := range tc.ids {
			ids = append(ids, id)
		}
		tc.d.Errorf(at, "%sinput_var %q is not a task of the chain%s (nor input, previous_output, last_error or TASK_error)", prefix, name, spell.DidYouMean(name, ids))
		return name
	}
}

// inputWords says what a model task without prompt_template is asked,
// for the dry run.
func inputWords(input string) string {
	switch input {
	case "":
		return "the output of the task that ran before: its conversation, or the chain's input"
	case InputVar:
		return "the chain's input"
	}
	return "the output of " + input
}

// parseDuration reads a task's timeout: a Go duration, more than zero.
func parseDuration(s string) (time.Duration, error) {
	dur, err := time.ParseDuration(s)
	if err == nil && dur <= 0 {
		err = fmt.Errorf("not positive")
	}
	return dur, err
}
