package chain

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// taskChainFile holds the keys of a contenox task chain: a JSON (or YAML)
// document {id, tasks}. It is read into chainrun's workflow model, one
// state per task, so that one engine runs both forms.
type taskChainFile struct {
	Schema      string `yaml:"$schema" doc:"The task-chain schema the file names (not read)."`
	ID          string `yaml:"id" doc:"The chain's name."`
	Description string `yaml:"description" doc:"What the chain does."`
	Debug       bool   `yaml:"debug" doc:"contenox's debug switch (no effect: chainrun's --verbose shows every step)."`
	TokenLimit  int    `yaml:"token_limit" doc:"contenox's context window cap (not applied; a budget caps tokens)."`
	Tasks       any    `yaml:"tasks" doc:"The tasks, in order; the first is where a run begins."`
}

// taskKeys are the keys of one task of a task chain.
type taskKeys struct {
	ID                string         `yaml:"id" doc:"The task's name: its state and its output variable."`
	Description       string         `yaml:"description" doc:"What the task does."`
	Handler           string         `yaml:"handler" doc:"chat_completion, route, execute_tool_calls, noop or raise_error."`
	SystemInstruction string         `yaml:"system_instruction" doc:"The system prompt of a model task."`
	PromptTemplate    string         `yaml:"prompt_template" doc:"The prompt; {{.input}} is the chain's input."`
	InputVar          string         `yaml:"input_var" doc:"The variable the task reads: input, previous_output or a task's id."`
	Print             string         `yaml:"print" doc:"The text a noop task outputs (or a raise_error task's message)."`
	ExecuteConfig     map[string]any `yaml:"execute_config" doc:"The model call: model, provider, tools, max_tokens, retry_policy."`
	Transition        any            `yaml:"transition" doc:"{on_failure, branches}: where the task's result leads."`
	RetryOnFailure    int            `yaml:"retry_on_failure" doc:"Retries of a failed task."`
	Timeout           string         `yaml:"timeout" doc:"Time limit of one attempt (30s, 5m)."`
	InputMaxBytes     int            `yaml:"input_max_bytes" doc:"Cap on the input a task reads (not applied)."`
	Tools             any            `yaml:"tools" doc:"A tools task's hook call (refused: chainrun has no contenox hooks)."`
	OutputTemplate    string         `yaml:"output_template" doc:"A tools task's output template (refused with the handler)."`
}

// Task-chain handlers chainrun runs.
const (
	handlerChat    = "chat_completion"
	handlerRoute   = "route"
	handlerExecute = "execute_tool_calls"
	handlerNoop    = "noop"
	handlerRaise   = "raise_error"
)

var taskHandlers = []string{handlerChat, handlerRoute, handlerExecute, handlerNoop, handlerRaise}

// IsTaskChain reports whether a decoded document is a task chain: a
// mapping with tasks and neither steps nor workflows.
func isTaskChain(root *yaml.Node) bool {
	return keyNode(root, "tasks") != nil && keyNode(root, "steps") == nil && keyNode(root, "workflows") == nil
}

// decodeTaskChain reads a task chain into one workflow chain.
func decodeTaskChain(d *diags, root *yaml.Node) []*Chain {
	var file taskChainFile
	checkKeys(d, root, "", keysOf[taskChainFile]())
	for _, k := range []string{"$schema", "id", "description", "debug", "token_limit"} {
		if v := valueOf(root, k); v != nil {
			decodeTaskField(d, root, k, &file)
		}
	}
	w := &Workflow{byName: map[string]*State{}, FieldPos: map[string]Pos{}, MaxChainDepth: DefaultMaxChainDepth, Counters: map[string]Edge{}}
	c := &Chain{Name: file.ID, Pos: posOf(root), Description: file.Description, Workflow: w}
	if v := valueOf(root, "id"); v != nil {
		c.Pos = posOf(v)
	} else {
		d.errorf(posOf(root), "a task chain needs an id (its name)")
	}
	if v := valueOf(root, "token_limit"); v != nil {
		d.warnf(posOf(v), "token_limit is not applied: chainrun caps a run's tokens with budget.max_tokens")
	}
	list := deref(valueOf(root, "tasks"))
	if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		d.errorf(posOf(list), "tasks must be a list of tasks, each {id, handler, transition}")
		return nil
	}
	w.FieldPos["states"] = posOf(list)
	tc := &taskChain{d: d, c: c}
	for i, n := range list.Content {
		n = deref(n)
		if n.Kind != yaml.MappingNode {
			d.errorf(posOf(n), "a task is a mapping with id, handler and transition")
			continue
		}
		if s := tc.task(n, i); s != nil {
			w.States = append(w.States, s)
			w.byName[s.Name] = s
		}
	}
	if len(w.States) > 0 {
		w.InitialState = w.States[0].Name
	}
	if tc.readsInput {
		w.InputSchema = map[string]any{"type": "object", "properties": map[string]any{"input": map[string]any{"type": "string", "description": "The message the chain answers."}}, "required": []any{"input"}}
		w.inputOrder = []string{"input"}
	}
	return []*Chain{c}
}

// decodeTaskField decodes one top-level key into its field of file.
func decodeTaskField(d *diags, root *yaml.Node, key string, file *taskChainFile) {
	one := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line, Column: root.Column}
	one.Content = []*yaml.Node{keyNode(root, key), valueOf(root, key)}
	var got taskChainFile
	if decodeInto(d, one, &got) {
		switch key {
		case "id":
			file.ID = got.ID
		case "description":
			file.Description = got.Description
		}
	}
}

// taskChain is the state of reading one task chain.
type taskChain struct {
	d          *diags
	c          *Chain
	readsInput bool
	prev       string
	// tools are the current task's tools, for the {{tools}} macro.
	tools []string
}

// task reads one task into its state: the handler becomes the state's
// task step, transition its branches.
func (tc *taskChain) task(n *yaml.Node, i int) *State {
	d := tc.d
	var k taskKeys
	idNode := valueOf(n, "id")
	name := fmt.Sprintf("task %d", i+1)
	if idNode != nil {
		name = "task " + quote(idNode.Value)
	}
	prefix := name + ": "
	checkKeys(d, n, prefix, keysOf[taskKeys]())
	// unknown keys were reported above, with suggestions
	if err := n.Load(&k); err != nil {
		d.yamlError(err, posOf(n), nil, prefix)
		return nil
	}
	if k.ID == "" {
		d.errorf(posOf(n), "%sid is required", prefix)
		return nil
	}
	s := &State{Name: k.ID, Pos: posOf(n), FieldPos: map[string]Pos{}, Goal: k.Description}
	step := &Step{Pos: posOf(n), FieldPos: map[string]Pos{}}
	step.ID, step.owner, step.role = k.ID, "state", "task"
	step.OutputVar = strings.ReplaceAll(k.ID, "-", "_")
	at := func(key string) Pos {
		if kn := keyNode(n, key); kn != nil {
			return posOf(kn)
		}
		return posOf(n)
	}
	tc.handler(step, &k, at, prefix)
	tc.common(step, &k, at, prefix)
	s.Task = step
	tc.c.Steps = append(tc.c.Steps, step)
	tc.transition(s, valueOf(n, "transition"), prefix)
	if k.Handler == handlerRoute {
		// the model picks one of the labels the branches name
		for _, b := range s.Branches {
			if b.Operator != OpDefault && b.Operator != OpEdgeTraversed && b.When != "" && !slices.Contains(step.ConditionKey, b.When) {
				step.ConditionKey = append(step.ConditionKey, b.When)
			}
		}
	}
	tc.prev = step.OutputVar
	return s
}

// handler fills the task step from the task's handler.
func (tc *taskChain) handler(step *Step, k *taskKeys, at func(string) Pos, prefix string) {
	d := tc.d
	switch k.Handler {
	case handlerChat, handlerRoute:
		step.Type = string(KindAgent)
		tc.executeConfig(step, k, at("execute_config"), prefix+"execute_config: ")
		step.System = tc.expandMacros(at("system_instruction"), prefix, k.SystemInstruction)
		step.FieldPos["system"] = at("system_instruction")
		step.Prompt = tc.prompt(k, at, prefix)
		step.FieldPos["prompt"] = at("prompt_template")
	case handlerExecute:
		// the tool calls a chat task asks for are run inside that task's
		// own tool loop, so a chat task never yields tool_call and this
		// state only passes the token on
		step.Type = string(KindTransform)
		step.Expr = `"executed"`
		tc.toolList(k.ExecuteConfig["tools"], at("execute_config"), prefix+"execute_config: ")
	case handlerNoop:
		step.Type = string(KindTransform)
		step.Expr = quoteExpr(k.Print)
		if k.Print == "" {
			step.Expr = tc.inputExpr(k)
		}
	case handlerRaise:
		// a command that fails with the message: the task fails, and
		// on_failure or a branch naming "failed" takes it
		step.Type = string(KindCLI)
		msg := k.Print
		if msg == "" {
			msg = "raise_error: " + k.ID
		}
		step.Command, step.Args = "sh", []string{"-c", `printf '%s\n' "$1" >&2; exit 1`, "raise_error", msg}
	case "":
		tc.d.errorf(at("id"), "%shandler is required (%s)", prefix, strings.Join(taskHandlers, ", "))
	default:
		d.errorf(at("handler"), "%shandler %q is not one chainrun can run%s; handlers are %s", prefix, k.Handler, didYouMean(k.Handler, taskHandlers), strings.Join(taskHandlers, ", "))
	}
	step.FieldPos["type"] = at("handler")
	if k.Tools != nil || k.OutputTemplate != "" {
		d.errorf(at("tools"), "%stools (a hook call with output_template) is not supported: chainrun has no contenox hooks", prefix)
	}
}

// common maps the fields every handler shares: retries and timeout.
func (tc *taskChain) common(step *Step, k *taskKeys, at func(string) Pos, prefix string) {
	if k.RetryOnFailure > 0 {
		step.Retry = &Retry{Max: k.RetryOnFailure + 1}
		step.FieldPos["retry"] = at("retry_on_failure")
	}
	if k.Timeout != "" {
		dur, err := parseDuration(k.Timeout)
		if err != nil {
			tc.d.errorf(at("timeout"), "%stimeout %q: write a duration such as 30s or 5m", prefix, k.Timeout)
		}
		step.TimeoutMS = int(dur.Milliseconds())
		step.FieldPos["timeout_ms"] = at("timeout")
	}
	if k.InputMaxBytes > 0 {
		tc.d.warnf(at("input_max_bytes"), "%sinput_max_bytes is not applied: the task reads its whole input", prefix)
	}
}

// prompt is what a model task is asked: its prompt_template, else the
// variable input_var names.
func (tc *taskChain) prompt(k *taskKeys, at func(string) Pos, prefix string) string {
	if k.PromptTemplate != "" {
		p := k.PromptTemplate
		if strings.Contains(p, "{{.input}}") {
			tc.readsInput = true
			p = strings.ReplaceAll(p, "{{.input}}", "{input.input}")
		}
		return tc.expandMacros(at("prompt_template"), prefix, p)
	}
	switch v := tc.inputVar(k); v {
	case "":
		tc.readsInput = true
		return "{input.input}"
	default:
		return "{" + v + "}"
	}
}

// inputVar is the variable a task reads ("" for the chain's input).
func (tc *taskChain) inputVar(k *taskKeys) string {
	switch k.InputVar {
	case "", "input":
		return ""
	case "previous_output":
		return tc.prev
	}
	return strings.ReplaceAll(k.InputVar, "-", "_")
}

// inputExpr is the expression a noop task without print passes its input
// on with.
func (tc *taskChain) inputExpr(k *taskKeys) string {
	if v := tc.inputVar(k); v != "" {
		return v
	}
	tc.readsInput = true
	return "input.input"
}

// quoteExpr writes text as an expression string literal.
func quoteExpr(text string) string {
	return fmt.Sprintf("%q", text)
}

// transition reads a task's transition; a task without one ends the run.
func (tc *taskChain) transition(s *State, v *yaml.Node, prefix string) {
	if v == nil {
		s.Branches = []*Branch{{Operator: OpDefault, Goto: End, Pos: s.Pos}}
		s.FieldPos["transition"] = s.Pos
		return
	}
	v = deref(v)
	s.FieldPos["transition"] = posOf(v)
	decodeBranches(tc.d, s, v, prefix)
}
