package chain

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// ToolDef is a chain-defined tool (issue: agent steps with tools): a
// deterministic step that an agent step listing it by name may call, with
// arguments checked against its input schema. The executor reads them as
// {args.NAME} or $.args.NAME.
type ToolDef struct {
	Name        string
	Description string `yaml:"description" doc:"What the tool does, for the model."`
	// InputSchema is the arguments' JSON Schema as written (an object
	// schema); Schema its compiled form.
	InputSchema map[string]any `yaml:"input_schema" doc:"JSON Schema (type: object) of its arguments."`
	Schema      *jsonschema.Resolved
	Executor    *Step `yaml:"executor" doc:"The step that runs a call: kind cli, http, transform or file; {args.NAME} reads an argument."`
	Pos         Pos
}

// Tool returns the chain-defined tool of that name, or nil.
func (c *Chain) Tool(name string) *ToolDef {
	for _, t := range c.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Completion is an agent step's completion tool (reference 001): the step
// ends when the model calls it with arguments that satisfy the schema, and
// those arguments are the step's JSON output.
type Completion struct {
	Tool        string         `yaml:"tool" json:"tool" doc:"The completion tool's name (submit_plan, say)."`
	Description string         `yaml:"description" json:"description,omitempty" doc:"What calling it means, for the model."`
	Schema      map[string]any `yaml:"schema" json:"schema" doc:"JSON Schema (type: object) the final arguments must satisfy."`

	resolved *jsonschema.Resolved
}

// Resolved is the compiled schema of the completion tool's arguments.
func (c *Completion) Resolved() *jsonschema.Resolved { return c.resolved }

// DefaultMaxTurns caps the model calls of one agent step with tools.
const DefaultMaxTurns = 20

// Turns is the most model calls the step's tool loop may make.
func (s *Step) Turns() int {
	if s.Agent().MaxTurns > 0 {
		return s.Agent().MaxTurns
	}
	return DefaultMaxTurns
}

// UsesTools reports whether the step runs a tool loop: it lists tools or
// has a completion tool.
func (s *Step) UsesTools() bool { return len(s.Agent().Tools) > 0 || s.Agent().Completion != nil }
