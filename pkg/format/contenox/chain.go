package contenox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
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
	// RoutingStrategy is an earlier format's (older.go).
	RoutingStrategy string `yaml:"routing_strategy" doc:"How an earlier contenox chose among the backends serving a model (not applied)."`
	Tasks           any    `yaml:"tasks" doc:"The tasks, in order; the first is where a run begins."`
}

// taskKeys are the keys of one task of a task chain.
type taskKeys struct {
	ID                string         `yaml:"id" doc:"The task's name: its state and its output variable."`
	Description       string         `yaml:"description" doc:"What the task does."`
	Handler           string         `yaml:"handler" doc:"chat_completion, route, execute_tool_calls, tools, noop, raise_error, or an earlier format's prompt_to_string, prompt_to_int, prompt_to_float, prompt_to_range, prompt_to_condition, parse_command, parse_key_value."`
	SystemInstruction string         `yaml:"system_instruction" doc:"The system prompt of a model task."`
	PromptTemplate    string         `yaml:"prompt_template" doc:"A Go template that replaces the task's input: {{.input}} is the chain's input, {{.TASK}} a task's output."`
	InputVar          string         `yaml:"input_var" doc:"The variable the task reads: input, previous_output or a task's id (default: the output of the task that ran before)."`
	Print             string         `yaml:"print" doc:"A Go template shown as a line of the task's log when it succeeds; the output is unchanged."`
	ExecuteConfig     map[string]any `yaml:"execute_config" doc:"The model call: model, provider, models, providers, tools, max_tokens, retry_policy."`
	Transition        any            `yaml:"transition" doc:"{on_failure, branches}: where the task's result leads."`
	RetryOnFailure    int            `yaml:"retry_on_failure" doc:"Retries of a failed task."`
	Timeout           string         `yaml:"timeout" doc:"Time limit of one attempt (30s, 5m)."`
	InputMaxBytes     int            `yaml:"input_max_bytes" doc:"Cap on the input a task reads: a longer text is cut, a conversation keeps its latest messages."`
	Tools             any            `yaml:"tools" doc:"A tools task's call: {name: HOOK, tool_name, args}."`
	OutputTemplate    string         `yaml:"output_template" doc:"A tools task's Go template over the tool's answer: its output and the result branches match."`
	Hook              any            `yaml:"hook" doc:"The older name of tools, for handler hook (the older name of tools)."`
	// ValidConditions and Compose are an earlier format's, refused
	// (older.go).
	ValidConditions any `yaml:"valid_conditions" doc:"An earlier format's condition_key answers (refused: chainrun has no such handler)."`
	Compose         any `yaml:"compose" doc:"An earlier format's merge of with_var into the task's output (refused)."`
}

// IsTaskChain reports whether a decoded document is a task chain: a
// mapping with tasks and neither steps nor workflows.
func isTaskChain(root *yaml.Node) bool {
	return yamlpos.KeyNode(root, "tasks") != nil && yamlpos.KeyNode(root, "steps") == nil && yamlpos.KeyNode(root, "workflows") == nil
}

// decodeTaskChain reads a task chain into one workflow chain.
func decodeTaskChain(d *yamlpos.Diags, root *yaml.Node) []*chain.Chain {
	var file taskChainFile
	yamlpos.CheckKeys(d, root, "", yamlpos.KeysOf[taskChainFile]())
	for _, k := range []string{"$schema", "id", "description", "debug", "token_limit"} {
		if v := yamlpos.ValueOf(root, k); v != nil {
			decodeTaskField(d, root, k, &file)
		}
	}
	w := chain.NewWorkflow()
	w.Counters = map[string]chain.Edge{}
	c := &chain.Chain{Name: file.ID, Pos: yamlpos.Of(root), Description: file.Description, Workflow: w}
	if v := yamlpos.ValueOf(root, "id"); v != nil {
		c.Pos = yamlpos.Of(v)
	} else {
		d.Errorf(yamlpos.Of(root), "a task chain needs an id (its name)")
	}
	routingStrategy(d, root)
	if v := yamlpos.ValueOf(root, "token_limit"); v != nil {
		d.Warnf(yamlpos.Of(v), "token_limit is not applied: chainrun caps a run's tokens with budget.max_tokens")
	}
	list := yamlpos.Deref(yamlpos.ValueOf(root, "tasks"))
	if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		d.Errorf(yamlpos.Of(list), "tasks must be a list of tasks, each {id, handler, transition}")
		return nil
	}
	w.FieldPos["states"] = yamlpos.Of(list)
	tc := &taskChain{d: d, c: c, ids: map[string]bool{}}
	first := map[string]*yaml.Node{}
	for _, n := range list.Content {
		if id := yamlpos.ValueOf(yamlpos.Deref(n), "id"); id != nil {
			tc.ids[id.Value] = true
			// contenox refuses a chain whose tasks share an id: a
			// transition to it could mean either
			if prev := first[id.Value]; prev != nil {
				d.SoftErrorf(yamlpos.Of(id), "task id %q is given twice (lines %d and %d): contenox refuses a chain with a duplicate task id; give one task another id", id.Value, prev.Line, id.Line)
			} else {
				first[id.Value] = id
			}
		}
	}
	for i, n := range list.Content {
		n = yamlpos.Deref(n)
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "a task is a mapping with id, handler and transition")
			continue
		}
		s := tc.task(n, i)
		if s == nil {
			continue
		}
		// a repeated id is reported above; the repeated task is still
		// checked, so its own errors are too
		w.AddState(s)
	}
	if len(w.States) > 0 {
		w.InitialState = w.States[0].Name
	}
	tc.executeScopes()
	for _, lint := range tc.lints {
		lint()
	}
	// contenox bounds a chain's loops with edge budgets, not a depth: each
	// round of a budgeted loop is two moves
	w.MaxChainDepth = chain.DefaultMaxChainDepth + 2*tc.budgets
	input := map[string]any{"type": "string", "description": "The message the chain answers."}
	w.InputSchema = map[string]any{"type": "object", "properties": map[string]any{InputVar: input}}
	if tc.readsInput {
		w.InputSchema["required"] = []any{InputVar}
	} else {
		input["default"] = ""
	}
	w.SetInputOrder(InputVar)
	return []*chain.Chain{c}
}

// decodeTaskField decodes one top-level key into its field of file.
func decodeTaskField(d *yamlpos.Diags, root *yaml.Node, key string, file *taskChainFile) {
	one := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line, Column: root.Column}
	one.Content = []*yaml.Node{yamlpos.KeyNode(root, key), yamlpos.ValueOf(root, key)}
	var got taskChainFile
	if yamlpos.DecodeInto(d, one, &got) {
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
	d *yamlpos.Diags
	c *chain.Chain
	// ids are the chain's task ids, for input_var.
	ids map[string]bool
	// readsInput is set when a model or raise_error task reads the
	// chain's input itself, which the run then requires.
	readsInput bool
	first      bool
	// tools are the current task's hooks' tools, for the {{tools}} macro;
	// hooks its hooks.
	tools []string
	hooks []string
	// budgets adds up the counts of the edge_traversed_at_least branches.
	budgets int
	// unscoped are the execute_tool_calls tasks that write no tools, and
	// hidden the tools each one's hide_tools takes out (see executeScopes).
	unscoped map[*chain.Step][]string
	// lints are the checks of each task that need every task known
	// (lint.go).
	lints []func()
}

// taskVar is the variable a task's output is kept in: its id, with every
// character a variable name cannot hold replaced by _.
func taskVar(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 0) {
			b[i] = '_'
		}
	}
	return string(b)
}

// task reads one task into its state: the handler becomes the state's
// task step, transition its branches.
func (tc *taskChain) task(n *yaml.Node, i int) *chain.State {
	d := tc.d
	var k taskKeys
	idNode := yamlpos.ValueOf(n, "id")
	name := fmt.Sprintf("task %d", i+1)
	if idNode != nil {
		name = "task " + chain.Quote(idNode.Value)
	}
	prefix := name + ": "
	tc.renameKeys(n, olderTaskKeys(), prefix)
	tc.renameKeys(yamlpos.Deref(yamlpos.ValueOf(n, "hook")), olderHookKeys(), prefix+"hook: ")
	yamlpos.CheckKeys(d, n, prefix, yamlpos.KeysOf[taskKeys]())
	// unknown keys were reported above, with suggestions
	if err := n.Load(&k); err != nil {
		d.YAMLError(err, yamlpos.Of(n), nil, prefix)
		return nil
	}
	if k.ID == "" {
		d.Errorf(yamlpos.Of(n), "%sid is required", prefix)
		return nil
	}
	if k.ID == chain.End {
		d.Errorf(yamlpos.Of(idNode), "%sid %q is where a branch ends the chain: give the task another id", prefix, chain.End)
	}
	s := &chain.State{Name: k.ID, Pos: yamlpos.Of(n), FieldPos: map[string]yamlpos.Pos{}, Goal: k.Description}
	step := &chain.Step{Pos: yamlpos.Of(n), FieldPos: map[string]yamlpos.Pos{}}
	step.ID = k.ID
	step.Place("state", "task")
	step.OutputVar = taskVar(k.ID)
	at := func(key string) yamlpos.Pos {
		if kn := yamlpos.KeyNode(n, key); kn != nil {
			return yamlpos.Of(kn)
		}
		return yamlpos.Of(n)
	}
	tc.first = i == 0
	tc.renameOlder(&k, at, prefix)
	tc.olderHandler(&k, at, prefix)
	tc.olderTaskFields(&k, at, prefix)
	tc.refuseFeatures(k.ExecuteConfig, at("execute_config"), prefix+"execute_config: ")
	tc.handler(step, &k, at, prefix)
	tc.common(step, &k, at, prefix)
	s.Task = step
	tc.c.Steps = append(tc.c.Steps, step)
	tc.transition(s, yamlpos.ValueOf(n, "transition"), prefix)
	tc.warnReferenceResults(s, k.Handler, prefix)
	tc.lintTask(s, &k, at, prefix)
	tc.olderToolsResult(s, &k, prefix)
	tc.warnConditionAnswers(s, HandlerOf(step), prefix)
	if h := HandlerOf(step); h != nil && h.Name == HandlerRoute {
		// the model picks one of the labels of the equals branches
		for _, b := range s.Branches {
			if b.Operator == chain.OpEquals && strings.TrimSpace(b.When) != "" && !slices.Contains(h.Routes, b.When) {
				h.Routes = append(h.Routes, b.When)
			}
		}
		if len(h.Routes) == 0 {
			d.SoftErrorf(at("transition"), "%sa route task needs equals branches: their when values are the labels the model picks from", prefix)
		}
	}
	return s
}

// handler fills the task step from the task's handler.
func (tc *taskChain) handler(step *chain.Step, k *taskKeys, at func(string) yamlpos.Pos, prefix string) {
	d := tc.d
	h := &Handler{Name: k.Handler, Input: tc.inputVar(k, at("input_var"), prefix), MaxInputBytes: k.InputMaxBytes}
	step.Handler = h
	h.Prompt = tc.goTemplate(at("prompt_template"), prefix, "prompt_template", tc.expandMacros(at("prompt_template"), prefix, k.PromptTemplate, macroGo))
	h.Print = tc.goTemplate(at("print"), prefix, "print", tc.expandMacros(at("print"), prefix, k.Print, macroGo))
	step.Type = string(chain.KindNoop)
	switch k.Handler {
	case HandlerChat, HandlerRoute, HandlerPromptString, HandlerPromptInt, HandlerPromptFloat, HandlerPromptRange, HandlerPromptCondition:
		step.Type = string(chain.KindAgent)
		if k.Handler == HandlerPromptCondition {
			h.Conditions = tc.validConditions(k.ValidConditions, at("valid_conditions"), prefix)
		}
		tc.executeConfig(step, k, at("execute_config"), prefix+"execute_config: ")
		if asksOnce(k.Handler) && len(step.Agent().Tools) > 0 {
			d.Warnf(at("execute_config"), "%sa %s task offers its model no tools: execute_config.tools is not applied", prefix, k.Handler)
			chain.Own[chain.AgentFields](step).Tools = nil
		}
		chain.Own[chain.AgentFields](step).System = tc.expandMacros(at("system_instruction"), prefix, k.SystemInstruction, macroSystem)
		chain.Own[chain.AgentFields](step).System += escapeBraces(tc.systemAdditions(step.Agent().System))
		step.FieldPos["system"] = at("system_instruction")
		chain.Own[chain.AgentFields](step).Prompt = escapeBraces(k.PromptTemplate)
		if step.Agent().Prompt == "" {
			chain.Own[chain.AgentFields](step).Prompt = "(" + inputWords(h.Input) + ")"
		}
		step.FieldPos["prompt"] = at("prompt_template")
		if h.Input == "" && tc.first || h.Input == InputVar || strings.Contains(k.PromptTemplate, ".input") {
			tc.readsInput = true
		}
	case HandlerExecute:
		chain.Own[chain.AgentFields](step).Tools = hideTools(tc.toolList(k.ExecuteConfig["tools"], at("execute_config"), prefix+"execute_config: "), k.ExecuteConfig["hide_tools"])
		if _, scoped := k.ExecuteConfig["tools"]; !scoped {
			if tc.unscoped == nil {
				tc.unscoped = map[*chain.Step][]string{}
			}
			tc.unscoped[step] = varList(k.ExecuteConfig["hide_tools"])
		}
		tc.toolsPolicies(h, k.ExecuteConfig["tools_policies"], at("execute_config"), prefix+"execute_config: ")
	case HandlerTools:
		tc.hookCall(h, k.Tools, at("tools"), prefix)
		// its own call is held to its tools_policies, as a model's is
		tc.toolsPolicies(h, k.ExecuteConfig["tools_policies"], at("execute_config"), prefix+"execute_config: ")
		h.Output = tc.goTemplate(at("output_template"), prefix, "output_template", tc.expandMacros(at("output_template"), prefix, k.OutputTemplate, macroGo))
		tc.refuseShellRecord(h, at("output_template"), prefix)
	case HandlerNoop, HandlerOpenAIResponse:
	case HandlerParseCommand, HandlerParseKeyValue:
		if h.Input == "" && tc.first || h.Input == InputVar {
			tc.readsInput = true
		}
	case HandlerRaise:
		if h.Input == "" && tc.first || h.Input == InputVar {
			tc.readsInput = true
		}
	case "":
		// the task is checked as a noop: the file's other errors are
		// reported with it
		tc.d.SoftErrorf(at("id"), "%shandler is required (%s)", prefix, strings.Join(taskHandlers, ", "))
	default:
		d.SoftErrorf(at("handler"), "%shandler %q is not one chainrun can run%s; handlers are %s", prefix, k.Handler, spell.DidYouMean(k.Handler, taskHandlers), strings.Join(taskHandlers, ", "))
	}
	step.FieldPos["type"] = at("handler")
	if k.Handler != HandlerTools && (k.Tools != nil || k.OutputTemplate != "") {
		d.Errorf(at("tools"), "%stools and output_template belong to a tools task (handler: tools)", prefix)
	}
	if step.Type != string(chain.KindAgent) && k.SystemInstruction != "" {
		d.Warnf(at("system_instruction"), "%ssystem_instruction is not applied: a %s task asks no model", prefix, k.Handler)
	}
}

// common maps the fields every handler shares: retries and timeout.
func (tc *taskChain) common(step *chain.Step, k *taskKeys, at func(string) yamlpos.Pos, prefix string) {
	if k.RetryOnFailure > 0 {
		step.Retry = &chain.Retry{Max: k.RetryOnFailure + 1}
		step.FieldPos["retry"] = at("retry_on_failure")
	}
	if k.Timeout != "" {
		dur, err := parseDuration(k.Timeout)
		if err != nil {
			tc.d.Errorf(at("timeout"), "%stimeout %q: write a duration such as 30s or 5m", prefix, k.Timeout)
		}
		step.TimeoutMS = int(dur.Milliseconds())
		step.FieldPos["timeout_ms"] = at("timeout")
	}
	if k.InputMaxBytes < 0 {
		tc.d.Errorf(at("input_max_bytes"), "%sinput_max_bytes cannot be negative", prefix)
	}
}

// executeScopes gives an execute_tool_calls task that writes no tools
// those of every model task but the ones its hide_tools takes out, as
// contenox allows it any tool the chain offers. A task that writes tools,
// even an empty list, runs only those: contenox's explicit scope
// (execute_tool_scope_test.go), so tools: [] runs no call.
func (tc *taskChain) executeScopes() {
	var all []string
	for _, s := range tc.c.Steps {
		if s.Kind == chain.KindAgent || s.Type == string(chain.KindAgent) {
			for _, t := range s.Agent().Tools {
				if !slices.Contains(all, t) {
					all = append(all, t)
				}
			}
		}
	}
	for s, hidden := range tc.unscoped {
		chain.Own[chain.AgentFields](s).Tools = hideTools(slices.Clone(all), hidden)
	}
}
