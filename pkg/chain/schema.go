package chain

import (
	"encoding/json"
	"maps"
	"reflect"

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
		"type":             map[string]any{"enum": Kinds()},
		"tools":            map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string", "examples": BuiltinTools}}}},
		"completion":       objectSchema(reflect.TypeOf(Completion{}), map[string]any{"schema": map[string]any{"type": "object"}}),
		"retry":            map[string]any{"oneOf": []any{map[string]any{"type": "integer", "minimum": 1, "maximum": MaxRetryAttempts}, objectSchema(reflect.TypeOf(Retry{}), nil)}},
		"cache":            map[string]any{"oneOf": []any{map[string]any{"type": "boolean"}, objectSchema(reflect.TypeOf(Cache{}), nil)}},
		"guardrails":       map[string]any{"type": "array", "items": objectSchema(reflect.TypeOf(Guardrail{}), map[string]any{"type": map[string]any{"enum": guardrailTypes}, "value": map[string]any{}})},
		"pre_tools":        map[string]any{"type": "array", "items": objectSchema(reflect.TypeOf(PreTool{}), preToolSchema())},
		"output_schema":    map[string]any{"enum": []string{"json", "markdown", "text"}},
		"context_strategy": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "pattern": "^(full|summarize|truncate:[0-9]+)$"}},
		"body":             map[string]any{"type": []string{"string", "object", "array"}},
		"use":              objectSchema(reflect.TypeFor[WorkflowUse](), map[string]any{"inputs": map[string]any{"type": "object"}}),
		"input":            map[string]any{"type": "object"},
		"query":            map[string]any{"type": "object"},
		"idempotencyKey":   map[string]any{"type": []string{"boolean", "string"}},
		"inputs":           map[string]any{"type": []string{"array", "object"}},
	})
	step := fieldsSchema(stepKeySet(), special)
	executor := copyMap(step)
	executorProps := copyMap(step["properties"].(map[string]any))
	executorProps["kind"] = map[string]any{"enum": Kinds(), "description": kindDoc}
	delete(executorProps, "id")
	delete(executorProps, "depends_on")
	delete(executorProps, "early_exit_if")
	executor["properties"] = executorProps
	step["required"] = []string{"id"}
	input := objectSchema(reflect.TypeOf(Input{}), map[string]any{"default": map[string]any{"type": []string{"string", "number", "boolean"}}})
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
	dag := objectSchema(reflect.TypeFor[Chain](), map[string]any{
		"version":     map[string]any{"type": []string{"string", "number"}},
		"inputs":      map[string]any{"type": "array", "items": map[string]any{"oneOf": []any{map[string]any{"type": "string"}, input}}},
		"steps":       map[string]any{"type": "array", "minItems": 1, "items": step},
		"budget":      objectSchema(reflect.TypeFor[Budget](), nil),
		"tools":       tools,
		"connections": map[string]any{"type": "object", "additionalProperties": objectSchema(reflect.TypeFor[connectionKeys](), nil)},
		"dotenv":      dotenvSchema(),
		"handlers":    handlersSchema(step),
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
	def := objectSchema(reflect.TypeFor[ToolDef](), map[string]any{
		"input_schema": map[string]any{"type": "object"},
		"executor":     executor,
	})
	def["required"] = []string{"executor"}
	return map[string]any{"type": "object", "additionalProperties": def, "description": yamlpos.FieldsOf(reflect.TypeFor[Chain]()).ByKey["tools"].Doc()}
}

// workflowFileSchema describes a file of state workflows (references 000
// and 003).
func workflowFileSchema(executor, tools map[string]any) map[string]any {
	branch := objectSchema(reflect.TypeFor[Branch](), map[string]any{
		"operator": map[string]any{"enum": Operators()},
		"when":     map[string]any{"type": []string{"string", "number"}},
		"compose":  objectSchema(reflect.TypeFor[Compose](), nil),
	})
	branch["required"] = []string{"operator", "goto"}
	skills := StringOrList()
	reliability := map[string]any{"type": "object"}
	transition := objectSchema(reflect.TypeFor[Transition](), map[string]any{
		"actor":       map[string]any{"enum": []string{ActorDeterministic, ActorAgent, ActorHuman}},
		"executor":    withEvidence(executor),
		"output":      outputMappingSchema(),
		"guards":      map[string]any{"type": "array", "items": guardSchema()},
		"skills":      skills,
		"reliability": reliability,
		"branches":    map[string]any{"type": "array", "items": map[string]any{"type": "object", "required": []string{"when", "target"}, "additionalProperties": false, "properties": map[string]any{"when": map[string]any{"type": "object"}, "target": map[string]any{"type": "string"}}}},
	})
	transition["required"] = []string{"target"}
	state := objectSchema(reflect.TypeFor[State](), map[string]any{
		"transitions": map[string]any{"type": "object", "additionalProperties": transition},
		"task":        executor,
		"transition":  objectSchema(reflect.TypeFor[BranchTransition](), map[string]any{"branches": map[string]any{"type": "array", "items": branch}}),
		"timeout":     map[string]any{"type": "string"},
		"outcome":     map[string]any{"enum": []string{OutcomeSucceeded, OutcomeFailed, OutcomeCancelled}},
		"actor":       map[string]any{"enum": []string{ActorDeterministic, ActorAgent, ActorHuman}},
		"skills":      skills,
		"onEnter":     map[string]any{"type": "object", "properties": map[string]any{"executor": executor, "output": outputMappingSchema(), "reliability": reliability}, "additionalProperties": false},
		"slots":       map[string]any{"type": "object", "additionalProperties": map[string]any{"type": []string{"object", "null"}}},
		"linkFilter":  map[string]any{"enum": []string{LinkFilterByGuards, LinkFilterAll}},
	})
	state["type"] = []string{"object", "null"}
	workflow := objectSchema(reflect.TypeFor[workflowKeys](), map[string]any{
		"inputSchema":   map[string]any{"type": "object"},
		"maxChainDepth": map[string]any{"type": "integer", "minimum": 1},
		"states":        map[string]any{"type": "object", "minProperties": 1, "additionalProperties": state},
		"agent":         objectSchema(reflect.TypeFor[workflowAgent](), nil),
		"budget":        objectSchema(reflect.TypeFor[Budget](), nil),
		"tools":         tools,
		"version":       map[string]any{"type": []string{"string", "number"}},
		"inputs":        map[string]any{"type": "object"},
		"verb":          map[string]any{"enum": capabilityVerbs},
		"lifecycle":     map[string]any{"enum": lifecycles},
		"snippet":       map[string]any{"type": "object", "required": []string{"inputs", "outputs"}, "properties": map[string]any{"inputs": map[string]any{"type": "object"}, "outputs": map[string]any{"type": "object"}}, "additionalProperties": false},
		"skills":        skills,
		"blackboard":    map[string]any{"type": []string{"object", "array"}},
		"linkFilter":    map[string]any{"enum": []string{LinkFilterByGuards, LinkFilterAll}},
		"onTimeout":     map[string]any{"type": "object", "required": []string{"target"}, "properties": map[string]any{"target": map[string]any{"type": "string"}, "executor": map[string]any{"type": "object", "description": "Accepted with a warning and not run (mcp-flowgate's runtime never ran it)."}}, "additionalProperties": false},
	})
	workflow["required"] = []string{"initialState", "states"}
	workflow["patternProperties"] = extensions()
	file := objectSchema(reflect.TypeFor[workflowFile](), map[string]any{
		"version":     map[string]any{"type": []string{"string", "number"}},
		"workflows":   map[string]any{"type": "object", "minProperties": 1, "additionalProperties": workflow},
		"scripts":     map[string]any{"type": "object", "additionalProperties": objectSchema(reflect.TypeFor[scriptKeys](), nil)},
		"connections": map[string]any{"type": "object", "additionalProperties": objectSchema(reflect.TypeFor[connectionKeys](), nil)},
		"skills":      map[string]any{"type": []string{"object", "array", "null"}, "additionalProperties": objectSchema(reflect.TypeFor[Fragment](), map[string]any{"verb": map[string]any{"enum": fragmentVerbs}, "lifecycle": map[string]any{"enum": lifecycles}})},
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
	for _, op := range OutputOps() {
		ops[op] = map[string]any{}
	}
	operation := map[string]any{"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false, "properties": ops}
	return map[string]any{"type": "object", "additionalProperties": map[string]any{"anyOf": []any{
		map[string]any{"type": []string{"string", "number", "boolean", "null", "array"}}, operation}}}
}

func StringOrList() map[string]any {
	return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}
}

// objectSchema describes a struct by its yaml tags (embedded structs
// flattened, a field's doc tag its description); special overrides the
// schema of named fields.
func objectSchema(t reflect.Type, special map[string]any) map[string]any {
	return fieldsSchema(yamlpos.FieldsOf(t), special)
}

// fieldsSchema is objectSchema for a set of keys (a step's, held in parts).
func fieldsSchema(fs *yamlpos.FieldSet, special map[string]any) map[string]any {
	props := map[string]any{}
	for _, f := range fs.List {
		var s map[string]any
		switch sp, ok := special[f.Key]; {
		case ok:
			s = copyMap(sp.(map[string]any))
		case f.Scalar:
			s = StringOrList()
		default:
			s = typeSchema(f.Type)
		}
		if doc := f.Doc(); doc != "" {
			s["description"] = doc
		}
		props[f.Key] = s
	}
	return map[string]any{"type": "object", "additionalProperties": false, "properties": props}
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
