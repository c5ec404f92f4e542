package schema

import (
	"encoding/json"
	"maps"
	"reflect"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/envfiles"
	"github.com/chainrun/chainrun/pkg/chain/wfpart"
	"github.com/chainrun/chainrun/pkg/chain/wfyaml"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	"github.com/google/jsonschema-go/jsonschema"
)

// kindDoc describes the kind key of an executor, which Step knows as type.
const kindDoc = "The executor's step kind (type is accepted too): cli, http (rest), transform, agent, file, chain, noop, script, parallel, pipeline, workflow, mcp, structural_analysis, dry_run or registry."

// JSONSchema describes the chain file format as a draft-07 JSON Schema with
// every definition inlined (the form yaml-language-server reads), built
// from the Go types so it cannot drift from what chainrun accepts.
func JSONSchema() map[string]any {
	special := unitSchemas()
	maps.Copy(special, map[string]any{
		"type":             map[string]any{"enum": chain.Kinds()},
		"tools":            map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string", "examples": chain.BuiltinTools}}}},
		"completion":       chain.ObjectSchema(reflect.TypeOf(chain.Completion{}), map[string]any{"schema": map[string]any{"type": "object"}}),
		"retry":            map[string]any{"oneOf": []any{map[string]any{"type": "integer", "minimum": 1, "maximum": chain.MaxRetryAttempts}, chain.ObjectSchema(reflect.TypeOf(chain.Retry{}), nil)}},
		"cache":            map[string]any{"oneOf": []any{map[string]any{"type": "boolean"}, chain.ObjectSchema(reflect.TypeOf(chain.Cache{}), nil)}},
		"guardrails":       map[string]any{"type": "array", "items": chain.ObjectSchema(reflect.TypeOf(chain.Guardrail{}), map[string]any{"type": map[string]any{"enum": chain.GuardrailTypes()}, "value": map[string]any{}})},
		"pre_tools":        map[string]any{"type": "array", "items": chain.ObjectSchema(reflect.TypeOf(chain.PreTool{}), chain.PreToolSchema())},
		"output_schema":    map[string]any{"enum": []string{"json", "markdown", "text"}},
		"context_strategy": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "pattern": "^(full|summarize|truncate:[0-9]+)$"}},
		"body":             map[string]any{"type": []string{"string", "object", "array"}},
		"use":              chain.ObjectSchema(reflect.TypeFor[chain.WorkflowUse](), map[string]any{"inputs": map[string]any{"type": "object"}}),
		"input":            map[string]any{"type": "object"},
		"query":            map[string]any{"type": "object"},
		"idempotencyKey":   map[string]any{"type": []string{"boolean", "string"}},
		"inputs":           map[string]any{"type": []string{"array", "object"}},
	})
	step := chain.FieldsSchema(chain.StepKeys(), special)
	executor := chain.CopyMap(step)
	executorProps := chain.CopyMap(step["properties"].(map[string]any))
	executorProps["kind"] = map[string]any{"enum": chain.Kinds(), "description": kindDoc}
	delete(executorProps, "id")
	delete(executorProps, "depends_on")
	delete(executorProps, "early_exit_if")
	executor["properties"] = executorProps
	step["required"] = []string{"id"}
	input := chain.ObjectSchema(reflect.TypeOf(chain.Input{}), map[string]any{"default": map[string]any{"type": []string{"string", "number", "boolean", "object", "array"}, "description": "The value when the input is not given (makes it optional). An array, object or json input's default may be written as YAML; any other type's is text."}})
	input["required"] = []string{"name"}
	tools := toolsSchema(executor)
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"$id":         ID,
		"title":       "chainrun chain",
		"description": "A chainrun chain file: a DAG chain (name, inputs, steps, output) or a file of state workflows (version, workflows).",
		"oneOf":       []any{dagSchema(step, input, tools), workflowFileSchema(executor, tools)},
	}
}

// ID is the schema's stable address ($id): the copy docs/chain.schema.json
// keeps on the main branch, which editors fetch through the modeline
// `chainrun init` writes (# yaml-language-server: $schema=ID). It names
// the schema, not a version: the schema only grows.
const ID = "https://raw.githubusercontent.com/chainrun/chainrun/main/docs/chain.schema.json"

// dagSchema describes a DAG chain file (reference 004).
func dagSchema(step, input, tools map[string]any) map[string]any {
	dag := chain.ObjectSchema(reflect.TypeFor[chain.Chain](), map[string]any{
		"version":     map[string]any{"type": []string{"string", "number"}},
		"inputs":      map[string]any{"type": "array", "items": map[string]any{"oneOf": []any{map[string]any{"type": "string"}, input}}},
		"steps":       map[string]any{"type": "array", "minItems": 1, "items": step},
		"budget":      chain.ObjectSchema(reflect.TypeFor[chain.Budget](), nil),
		"tools":       tools,
		"connections": map[string]any{"type": "object", "additionalProperties": chain.ObjectSchema(reflect.TypeFor[wfpart.ConnectionKeys](), nil)},
		"dotenv":      dotenvSchema(),
		"handlers":    chain.HandlersSchema(step),
	})
	if props, ok := dag["properties"].(map[string]any); ok {
		props["max_context_chars"] = map[string]any{"type": "integer",
			"description": "OCC's context budget (a file read as OCC's only): past this many characters of variables, older step outputs are summarized or cut (default 50000; 0: off)."}
	}
	dag["description"] = "A DAG chain: inputs, steps joined by depends_on, and the output."
	dag["required"] = []string{"name", "steps"}
	dag["patternProperties"] = extensions()
	return dag
}

// extensions allows the x-… keys that hold YAML anchors.
func extensions() map[string]any { return map[string]any{"^x-": map[string]any{}} }

// toolsSchema describes a chain's tools: map.
func toolsSchema(executor map[string]any) map[string]any {
	def := chain.ObjectSchema(reflect.TypeFor[chain.ToolDef](), map[string]any{
		"input_schema": map[string]any{"type": "object"},
		"executor":     executor,
	})
	def["required"] = []string{"executor"}
	return map[string]any{"type": "object", "additionalProperties": def, "description": yamlpos.FieldsOf(reflect.TypeFor[chain.Chain]()).ByKey["tools"].Doc()}
}

// workflowFileSchema describes a file of state workflows (references 000
// and 003).
func workflowFileSchema(executor, tools map[string]any) map[string]any {
	branch := chain.ObjectSchema(reflect.TypeFor[chain.Branch](), map[string]any{
		"operator": map[string]any{"enum": wfpart.Operators()},
		"when":     map[string]any{"type": []string{"string", "number"}},
		"compose":  chain.ObjectSchema(reflect.TypeFor[chain.Compose](), nil),
	})
	branch["required"] = []string{"operator", "goto"}
	skills := chain.StringOrList()
	reliability := map[string]any{"type": "object"}
	transition := chain.ObjectSchema(reflect.TypeFor[chain.Transition](), map[string]any{
		"actor":       map[string]any{"enum": []string{chain.ActorDeterministic, chain.ActorAgent, chain.ActorHuman}},
		"executor":    withEvidence(executor),
		"output":      outputMappingSchema(),
		"guards":      map[string]any{"type": "array", "items": guardSchema()},
		"skills":      skills,
		"reliability": reliability,
		"branches":    map[string]any{"type": "array", "items": map[string]any{"type": "object", "required": []string{"when", "target"}, "additionalProperties": false, "properties": map[string]any{"when": map[string]any{"type": "object"}, "target": map[string]any{"type": "string"}}}},
	})
	transition["required"] = []string{"target"}
	state := chain.ObjectSchema(reflect.TypeFor[chain.State](), map[string]any{
		"transitions": map[string]any{"type": "object", "additionalProperties": transition},
		"task":        executor,
		"transition":  chain.ObjectSchema(reflect.TypeFor[chain.BranchTransition](), map[string]any{"branches": map[string]any{"type": "array", "items": branch}}),
		"timeout":     map[string]any{"type": "string"},
		"outcome":     map[string]any{"enum": []string{chain.OutcomeSucceeded, chain.OutcomeFailed, chain.OutcomeCancelled}},
		"actor":       map[string]any{"enum": []string{chain.ActorDeterministic, chain.ActorAgent, chain.ActorHuman}},
		"skills":      skills,
		"onEnter":     map[string]any{"type": "object", "properties": map[string]any{"executor": executor, "output": outputMappingSchema(), "reliability": reliability}, "additionalProperties": false},
		"slots":       map[string]any{"type": "object", "additionalProperties": map[string]any{"type": []string{"object", "null"}}},
		"linkFilter":  map[string]any{"enum": []string{chain.LinkFilterByGuards, chain.LinkFilterAll}},
	})
	state["type"] = []string{"object", "null"}
	workflow := chain.ObjectSchema(reflect.TypeFor[wfyaml.WorkflowKeys](), map[string]any{
		"inputSchema":   map[string]any{"type": "object"},
		"maxChainDepth": map[string]any{"type": "integer", "minimum": 1},
		"states":        map[string]any{"type": "object", "minProperties": 1, "additionalProperties": state},
		"agent":         chain.ObjectSchema(reflect.TypeFor[wfyaml.WorkflowAgentKeys](), nil),
		"budget":        chain.ObjectSchema(reflect.TypeFor[chain.Budget](), nil),
		"tools":         tools,
		"version":       map[string]any{"type": []string{"string", "number"}},
		"inputs":        map[string]any{"type": "object"},
		"verb":          map[string]any{"enum": wfpart.CapabilityVerbs()},
		"lifecycle":     map[string]any{"enum": wfpart.Lifecycles()},
		"snippet":       map[string]any{"type": "object", "required": []string{"inputs", "outputs"}, "properties": map[string]any{"inputs": map[string]any{"type": "object"}, "outputs": map[string]any{"type": "object"}}, "additionalProperties": false},
		"skills":        skills,
		"blackboard":    map[string]any{"type": []string{"object", "array"}},
		"linkFilter":    map[string]any{"enum": []string{chain.LinkFilterByGuards, chain.LinkFilterAll}},
		"onTimeout":     map[string]any{"type": "object", "required": []string{"target"}, "properties": map[string]any{"target": map[string]any{"type": "string"}, "executor": map[string]any{"type": "object", "description": "Accepted with a warning and not run (mcp-flowgate's runtime never ran it)."}}, "additionalProperties": false},
	})
	workflow["required"] = []string{"initialState", "states"}
	workflow["patternProperties"] = extensions()
	file := chain.ObjectSchema(reflect.TypeFor[wfyaml.WorkflowFileKeys](), map[string]any{
		"version":     map[string]any{"type": []string{"string", "number"}},
		"workflows":   map[string]any{"type": "object", "minProperties": 1, "additionalProperties": workflow},
		"scripts":     map[string]any{"type": "object", "additionalProperties": chain.ObjectSchema(reflect.TypeFor[wfpart.ScriptKeys](), nil)},
		"connections": map[string]any{"type": "object", "additionalProperties": chain.ObjectSchema(reflect.TypeFor[wfpart.ConnectionKeys](), nil)},
		"skills":      map[string]any{"type": []string{"object", "array", "null"}, "additionalProperties": chain.ObjectSchema(reflect.TypeFor[chain.Fragment](), map[string]any{"verb": map[string]any{"enum": wfpart.FragmentVerbs()}, "lifecycle": map[string]any{"enum": wfpart.Lifecycles()}})},
		"dotenv":      dotenvSchema(),
	})
	file["required"] = []string{"workflows"}
	file["patternProperties"] = extensions()
	return file
}

// outputMappingSchema describes a transition's output: each context key a
// JSONPath or literal, or one operator with its operands.
func outputMappingSchema() map[string]any {
	ops := map[string]any{}
	for _, op := range wfpart.OutputOps() {
		ops[op] = map[string]any{}
	}
	operation := map[string]any{"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false, "properties": ops}
	return map[string]any{"type": "object", "additionalProperties": map[string]any{"anyOf": []any{
		map[string]any{"type": []string{"string", "number", "boolean", "null", "array"}}, operation}}}
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

// unitSchemas are the units' Schema entries by key.
func unitSchemas() map[string]any {
	all := map[string]any{}
	for _, u := range chain.Units() {
		for k, s := range u.Schema {
			all[k] = s
		}
	}
	return all
}

// dotenvSchema is the JSON Schema of dotenv:.
func dotenvSchema() map[string]any {
	file := chain.ObjectSchema(reflect.TypeFor[envfiles.File](), nil)
	file["required"] = []string{"path"}
	item := map[string]any{"oneOf": []any{map[string]any{"type": "string"}, file}}
	return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": item}}}
}
