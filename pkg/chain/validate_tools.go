package chain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// toolNamePattern is what both model APIs accept as a tool name.
var toolNamePattern = LazyRegexp(`^[A-Za-z0-9_-]{1,64}$`)

// BuiltinTools are the tools an agent step may list, named and shaped as
// coding agents know them. WebFetch and WebSearch reach the network, so
// a step has them only when it lists them (OCC's chains do).
var BuiltinTools = append(slices.Clone(LocalTools), "WebFetch", "WebSearch")

// LocalTools are the built-in tools that act in the step's directory
// alone: a contenox chain's local_fs and local_shell hooks.
var LocalTools = []string{"Read", "Write", "Edit", "Glob", "Grep", "Bash"}

// toolKinds are the step kinds a chain-defined tool may run: deterministic
// work a model can ask for.
var toolKinds = []Kind{KindCLI, KindHTTP, KindTransform, KindFile}

// toolKindNames are the names a tool's executor may give its kind.
func toolKindNames() []string {
	var out []string
	for _, k := range Kinds() {
		if kind, _ := kindOf(k); slices.Contains(toolKinds, kind) {
			out = append(out, k)
		}
	}
	return out
}

// toolDefs checks the chain-defined tools and compiles their executors,
// which read the call's arguments as {args.NAME} and the chain's inputs.
func (v *validator) toolDefs() {
	for _, t := range v.c.Tools {
		name := "tool " + quote(t.Name)
		switch {
		case !toolNamePattern().MatchString(t.Name):
			v.d.Errorf(t.Pos, "%s: a tool name is 1 to 64 letters, digits, '_' and '-'", name)
		case slices.Contains(BuiltinTools, t.Name):
			v.d.Errorf(t.Pos, "%s: %s is a built-in tool; give yours another name", name, t.Name)
		}
		if t.Description == "" {
			v.d.Warnf(t.Pos, "%s has no description: the model sees only its name and arguments", name)
		}
		if t.InputSchema == nil {
			t.InputSchema = map[string]any{"type": "object"}
		}
		rs, err := compileArgsSchema(t.InputSchema)
		if err != nil {
			v.d.Errorf(t.Pos, "%s: input_schema: %v", name, err)
		}
		t.Schema = rs
		e := t.Executor
		if e == nil {
			v.d.Errorf(t.Pos, "%s: executor is required (a cli, http, transform or file step that does the work)", name)
			continue
		}
		for _, f := range []string{"id", "depends_on", "early_exit_if", "for_each", "output_var"} {
			if _, set := e.FieldPos[f]; set {
				v.d.Errorf(e.At(f), "%s executor: %s does not apply to a tool", name, f)
			}
		}
		kind, known := kindOf(e.Type)
		if _, set := e.FieldPos["type"]; set && !known {
			continue // reported by name when the tool was read
		}
		if _, set := e.FieldPos["type"]; !set || !slices.Contains(toolKinds, kind) {
			v.d.Errorf(e.At("type"), "%s executor: kind is cli, http, transform or file", name)
			continue
		}
		e.Kind = kind
		v.toolSteps[e] = true
		v.kindFields(e)
		v.compile(e)
	}
}

// toolCheck is scope.check for a tool's executor.
func (v *validator) toolCheck(name string) string {
	if name == "input" || name == "args" {
		return ""
	}
	return fmt.Sprintf("a tool's executor reads its call's arguments as {args.NAME} and the chain's inputs as {input.NAME}; %s is neither", name)
}

// stepTools checks the tools an agent step lists and its completion tool.
func (v *validator) stepTools(s *Step) {
	for _, tool := range s.Agent().Tools {
		if slices.Contains(BuiltinTools, tool) || v.c.Tool(tool) != nil {
			continue
		}
		known := append([]string(nil), BuiltinTools...)
		for _, t := range v.c.Tools {
			known = append(known, t.Name)
		}
		v.d.Errorf(s.At("tools"), "%s: unknown tool %q%s; tools are %s", s.Subject(), tool, didYouMean(tool, known), strings.Join(known, ", "))
	}
	cp := s.Agent().Completion
	if cp == nil {
		return
	}
	at := s.At("completion")
	switch {
	case !toolNamePattern().MatchString(cp.Tool):
		v.d.Errorf(at, "%s: completion.tool %q: a tool name is 1 to 64 letters, digits, '_' and '-'", s.Subject(), cp.Tool)
	case slices.Contains(BuiltinTools, cp.Tool) || v.c.Tool(cp.Tool) != nil || slices.Contains(s.Agent().Tools, cp.Tool):
		v.d.Errorf(at, "%s: completion.tool %q is already a tool; the completion tool needs a name of its own (submit_plan, say)", s.Subject(), cp.Tool)
	}
	if cp.Schema == nil {
		v.d.Errorf(at, "%s: completion.schema is required: the JSON Schema the model's final arguments must satisfy", s.Subject())
		return
	}
	cp.Schema, _ = NormalizeYAML(cp.Schema).(map[string]any)
	rs, err := compileArgsSchema(cp.Schema)
	if err != nil {
		v.d.Errorf(at, "%s: completion.schema: %v", s.Subject(), err)
		return
	}
	cp.resolved = rs
}

// compileArgsSchema compiles the JSON Schema of a tool's arguments, which
// both model APIs require to describe an object.
func compileArgsSchema(schema map[string]any) (*jsonschema.Resolved, error) {
	if t, ok := schema["type"]; !ok || t != "object" {
		return nil, fmt.Errorf("a tool's arguments are an object: the schema needs type: object")
	}
	return compileSchema(schema)
}
