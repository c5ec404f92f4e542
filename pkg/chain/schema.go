package chain

import (
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// fieldDocs describes the fields of the chain format that are not a
// step's (a step's are the doc tags of its structs), by YAML key; the JSON
// Schema carries them so editors can show them. A test fails when a field
// of the Go types has no description.
var fieldDocs = map[string]string{
	// chain
	"name":        "The chain's name: chainrun run NAME finds it by this (letters, digits, '-', '_', '.').",
	"description": "One line shown by chainrun list.",
	"version":     "Your version of the chain (free text).",
	"inputs":      "Parameters given with --input: a list of {name, description, optional, default, secret} (or plain names).",
	"steps":       "The steps. Each starts as soon as the steps in its depends_on have finished.",
	"output":      "The output_var whose value is the chain's result.",
	"budget":      "Caps on the run's model use: max_tokens and max_llm_calls.",
	// input
	"input.name":             "The input's name, read as {input.NAME}.",
	"input.description":      "Shown by chainrun list and in errors about the input.",
	"optional":               "The input may be omitted ({input.NAME} is then empty).",
	"default":                "The value when the input is not given (makes it optional).",
	"secret":                 "Masked as *** in errors, events, results and saved runs; never saved.",
	"chain.tools":            "Tools the chain defines for its agent steps: each a description, the JSON Schema of its arguments and a cli, http, transform or file executor reading them as {args.NAME}.",
	"completion.tool":        "The completion tool's name (submit_plan, say).",
	"completion.description": "What calling it means, for the model.",
	"completion.schema":      "JSON Schema (type: object) the final arguments must satisfy.",
	"tooldef.description":    "What the tool does, for the model.",
	"tooldef.input_schema":   "JSON Schema (type: object) of its arguments.",
	"tooldef.executor":       "The step that runs a call: kind cli, http, transform or file; {args.NAME} reads an argument.",
	// nested
	"retry.max":         "Attempts in all (1 = no retry).",
	"retry.delay_ms":    "Wait before the first retry, in milliseconds.",
	"retry.backoff":     "Each retry waits this many times longer.",
	"cache.enabled":     "Keep and reuse answers.",
	"cache.ttl_minutes": "How long an answer is kept (default a day).",
	"guardrail.type":    "min_length, max_length, must_contain, must_not_contain, regex_match, json_valid or json_schema.",
	"guardrail.value":   "The rule's value: a number, a text, a regular expression or a JSON Schema.",
	"pre_tool.type":     "shell, http or file.",
	"pre_tool.command":  "Program to run (shell).",
	"pre_tool.args":     "Its arguments (shell).",
	"pre_tool.run":      "A script (shell).",
	"pre_tool.url":      "URL to fetch (http).",
	"pre_tool.method":   "HTTP method (http).",
	"pre_tool.headers":  "HTTP headers (http).",
	"pre_tool.path":     "File to read (file).",
	"inject_as":         "The variable the data is known by in the step.",
	"on_error":          "fail (default), inject (the error text becomes the value) or skip.",
	"budget.max_tokens": "Most tokens (input and output) the run may use.",
	"kind":              "The executor's step kind (type is accepted too): cli, http, transform, agent, file or chain.",
	// workflows (references 000 and 003)
	"workflows":              "Each workflow's name and its state machine.",
	"workflow.title":         "A short title for lists and pictures.",
	"workflow.description":   "What the workflow does.",
	"workflow.tags":          "Labels for finding workflows.",
	"workflow.inputSchema":   "JSON Schema of the inputs: --input values are converted to its types, defaults apply, additionalProperties: false rejects unknown inputs.",
	"workflow.initialState":  "The state a run begins in.",
	"workflow.maxChainDepth": "Most transitions one run or resume takes on its own before it fails (default 50).",
	"workflow.states":        "The states, by name.",
	"workflow.agent":         "agent: {model: provider/model} lets that model decide agent decision points instead of pausing.",
	"workflow.output":        "The variable whose value is the run's output (default: the context).",
	"workflow.budget":        "Caps on the run's model use.",
	"state.goal":             "What the decision at this state is for (shown with its links).",
	"state.guidance":         "Instructions for whoever decides here.",
	"state.terminal":         "The run ends successfully here.",
	"state.transitions":      "Named transitions out of the state.",
	"state.task":             "A step whose result string the branches match (reference 003).",
	"state.transition":       "transition: {branches: [...]}: where the task's result leads.",
	"state.timeout":          "How long a decision point may wait (30m, 2h); then on_timeout is taken.",
	"state.on_timeout":       "The transition taken once timeout has passed.",
	"transition.target":      "The state the transition leads to.",
	"transition.actor":       "Who takes it: deterministic (the runtime, at once), agent or human (a decision point).",
	"transition.executor":    "A step of any kind run when the transition is taken; a cli step's JSON object output is merged into context.",
	"transition.condition":   "Expression that must hold for the transition to be viable.",
	"transition.title":       "How links show the transition (default: its name in words).",
	"branch.operator":        "equals, not_equals, contains, not_contains, range (\"min,max\") or default.",
	"branch.when":            "The value the task's result is matched against.",
	"branch.goto":            "The next state, or end.",
	"branch.compose":         "Stores a value from the task's output in a variable when this branch is taken.",
	"compose.with_var":       "The variable's name ({{.name}} or {name} reads it).",
	"compose.strategy":       "json_path:$.path into the task's output.",
	"agent.model":            "The model that decides (provider/model).",
	"budget.max_llm_calls":   "Most model requests the run may send.",
}

// doc returns the description of a field, preferring a qualified key.
func doc(scope, key string) string {
	if d, ok := fieldDocs[scope+"."+key]; ok {
		return d
	}
	return fieldDocs[key]
}

// JSONSchema describes the chain file format as a draft-07 JSON Schema with
// every definition inlined (the form yaml-language-server reads), built
// from the Go types so it cannot drift from what chainrun accepts.
func JSONSchema() map[string]any {
	step := objectSchema(reflect.TypeOf(Step{}), "step", map[string]any{
		"type":             map[string]any{"enum": Kinds()},
		"tools":            map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string", "examples": BuiltinTools}}}},
		"completion":       objectSchema(reflect.TypeOf(Completion{}), "completion", map[string]any{"schema": map[string]any{"type": "object"}}),
		"retry":            map[string]any{"oneOf": []any{map[string]any{"type": "integer", "minimum": 1}, objectSchema(reflect.TypeOf(Retry{}), "retry", nil)}},
		"cache":            map[string]any{"oneOf": []any{map[string]any{"type": "boolean"}, objectSchema(reflect.TypeOf(Cache{}), "cache", nil)}},
		"guardrails":       map[string]any{"type": "array", "items": objectSchema(reflect.TypeOf(Guardrail{}), "guardrail", map[string]any{"type": map[string]any{"enum": guardrailTypes}, "value": map[string]any{}})},
		"pre_tools":        map[string]any{"type": "array", "items": objectSchema(reflect.TypeOf(PreTool{}), "pre_tool", map[string]any{"on_error": map[string]any{"enum": []string{"inject", "skip", "fail"}}})},
		"output_schema":    map[string]any{"enum": []string{"json", "markdown", "text"}},
		"context_strategy": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "pattern": "^(full|summarize|truncate:[0-9]+)$"}},
	})
	executor := copyMap(step)
	executorProps := copyMap(step["properties"].(map[string]any))
	executorProps["kind"] = describe(map[string]any{"enum": Kinds()}, "", "kind")
	delete(executorProps, "id")
	delete(executorProps, "depends_on")
	delete(executorProps, "early_exit_if")
	executor["properties"] = executorProps
	step["required"] = []string{"id"}
	input := objectSchema(reflect.TypeOf(Input{}), "input", map[string]any{"default": map[string]any{"type": []string{"string", "number", "boolean"}}})
	input["required"] = []string{"name"}
	tools := toolsSchema(executor)
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"title":       "chainrun chain",
		"description": "A chainrun chain file: a DAG chain (name, inputs, steps, output) or a file of state workflows (version, workflows).",
		"oneOf":       []any{dagSchema(step, input, tools), workflowFileSchema(executor, tools)},
	}
}

// dagSchema describes a DAG chain file (reference 004).
func dagSchema(step, input, tools map[string]any) map[string]any {
	dag := objectSchema(reflect.TypeFor[Chain](), "", map[string]any{
		"version": map[string]any{"type": []string{"string", "number"}},
		"inputs":  map[string]any{"type": "array", "items": map[string]any{"oneOf": []any{map[string]any{"type": "string"}, input}}},
		"steps":   map[string]any{"type": "array", "minItems": 1, "items": step},
		"budget":  objectSchema(reflect.TypeFor[Budget](), "budget", nil),
		"tools":   tools,
	})
	dag["description"] = "A DAG chain: inputs, steps joined by depends_on, and the output."
	dag["required"] = []string{"name", "steps"}
	dag["patternProperties"] = extensions()
	return dag
}

// extensions allows the x-… keys that hold YAML anchors.
func extensions() map[string]any { return map[string]any{"^x-": map[string]any{}} }

// toolsSchema describes a chain's tools: map.
func toolsSchema(executor map[string]any) map[string]any {
	def := objectSchema(reflect.TypeFor[ToolDef](), "tooldef", map[string]any{
		"input_schema": map[string]any{"type": "object"},
		"executor":     executor,
	})
	def["required"] = []string{"executor"}
	return describe(map[string]any{"type": "object", "additionalProperties": def}, "chain", "tools")
}

// workflowFileSchema describes a file of state workflows (references 000
// and 003).
func workflowFileSchema(executor, tools map[string]any) map[string]any {
	branch := objectSchema(reflect.TypeFor[Branch](), "branch", map[string]any{
		"operator": map[string]any{"enum": Operators()},
		"when":     map[string]any{"type": []string{"string", "number"}},
		"compose":  objectSchema(reflect.TypeFor[Compose](), "compose", nil),
	})
	branch["required"] = []string{"operator", "goto"}
	transition := objectSchema(reflect.TypeFor[Transition](), "transition", map[string]any{
		"actor":    map[string]any{"enum": []string{ActorDeterministic, ActorAgent, ActorHuman}},
		"executor": executor,
	})
	transition["required"] = []string{"target"}
	state := objectSchema(reflect.TypeFor[State](), "state", map[string]any{
		"transitions": map[string]any{"type": "object", "additionalProperties": transition},
		"task":        executor,
		"transition":  objectSchema(reflect.TypeFor[branchTransition](), "", map[string]any{"branches": map[string]any{"type": "array", "items": branch}}),
		"timeout":     map[string]any{"type": "string"},
	})
	state["type"] = []string{"object", "null"}
	workflow := objectSchema(reflect.TypeFor[workflowKeys](), "workflow", map[string]any{
		"inputSchema":   map[string]any{"type": "object"},
		"maxChainDepth": map[string]any{"type": "integer", "minimum": 1},
		"states":        map[string]any{"type": "object", "minProperties": 1, "additionalProperties": state},
		"agent":         objectSchema(reflect.TypeFor[workflowAgent](), "agent", nil),
		"budget":        objectSchema(reflect.TypeFor[Budget](), "budget", nil),
		"tools":         tools,
	})
	workflow["required"] = []string{"initialState", "states"}
	workflow["patternProperties"] = extensions()
	file := objectSchema(reflect.TypeFor[workflowFile](), "", map[string]any{
		"version":   map[string]any{"type": []string{"string", "number"}},
		"workflows": map[string]any{"type": "object", "minProperties": 1, "additionalProperties": workflow},
	})
	file["required"] = []string{"workflows"}
	file["patternProperties"] = extensions()
	return file
}

func stringOrList() map[string]any {
	return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}
}

func describe(s map[string]any, scope, key string) map[string]any {
	if d := doc(scope, key); d != "" {
		s["description"] = d
	}
	return s
}

// objectSchema describes a struct by its yaml tags (embedded structs
// flattened, a field's doc tag its description); special overrides the
// schema of named fields.
func objectSchema(t reflect.Type, scope string, special map[string]any) map[string]any {
	props := map[string]any{}
	for _, f := range fieldsOf(t).list {
		var s map[string]any
		switch sp, ok := special[f.key]; {
		case ok:
			s = copyMap(sp.(map[string]any))
		case f.scalar:
			s = stringOrList()
		default:
			s = typeSchema(f.typ)
		}
		if d := fieldDoc(scope, f); d != "" {
			s["description"] = d
		}
		props[f.key] = s
	}
	return map[string]any{"type": "object", "additionalProperties": false, "properties": props}
}

// fieldDoc is the description of a struct's field: a qualified entry of
// fieldDocs, else its doc tag, else an unqualified entry.
func fieldDoc(scope string, f *field) string {
	if d, ok := fieldDocs[scope+"."+f.key]; ok {
		return d
	}
	if f.doc != "" {
		return f.doc
	}
	return fieldDocs[f.key]
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem())}
	}
	return map[string]any{}
}

// ResolvedSchema is JSONSchema ready to validate documents (decoded JSON),
// for tests and tools that check chain files against it.
func ResolvedSchema() (*jsonschema.Resolved, error) {
	data, err := json.Marshal(JSONSchema())
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
}
