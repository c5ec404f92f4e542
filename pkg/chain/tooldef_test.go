package chain

import (
	"strings"
	"testing"
)

func TestChainToolsValidate(t *testing.T) {
	const head = "name: t\n"
	step := "steps:\n  - {id: a, model: m/x, prompt: hi, tools: [count]}\n"
	cases := []struct{ name, src, want string }{
		{"builtin name", head + "tools:\n  Read: {executor: {kind: cli, run: x}}\n" + step, "Read is a built-in tool"},
		{"bad name", head + "tools:\n  'two words': {executor: {kind: cli, run: x}}\n" + step, "a tool name is 1 to 64"},
		{"no executor", head + "tools:\n  count: {description: c}\n" + step, "executor is required"},
		{"agent executor", head + "tools:\n  count: {description: c, executor: {kind: agent, prompt: x}}\n" + step, "kind is cli, http, transform or file"},
		{"schema not object", head + "tools:\n  count: {description: c, input_schema: {type: string}, executor: {kind: cli, run: x}}\n" + step, "needs type: object"},
		{"reads a step var", head + "tools:\n  count: {description: c, executor: {kind: cli, run: 'echo {other}'}}\n" + step, "reads its call's arguments as {args.NAME}"},
		{"unknown field", head + "tools:\n  count: {description: c, schema: {}, executor: {kind: cli, run: x}}\n" + step, `unknown field "schema"`},
		{"executor id", head + "tools:\n  count: {description: c, executor: {kind: cli, run: x, id: y}}\n" + step, "id does not apply to a tool"},
		{"unknown listed", head + "tools:\n  count: {description: c, executor: {kind: cli, run: x}}\nsteps:\n  - {id: a, model: m/x, prompt: hi, tools: [cont]}\n", `unknown tool "cont" (did you mean count?)`},
		{"completion clash", head + "steps:\n  - {id: a, model: m/x, prompt: hi, tools: [Read], completion: {tool: Read, schema: {type: object}}}\n", "is already a tool"},
		{"completion schema", head + "steps:\n  - {id: a, model: m/x, prompt: hi, completion: {tool: done}}\n", "completion.schema is required"},
		{"completion not object", head + "steps:\n  - {id: a, model: m/x, prompt: hi, completion: {tool: done, schema: {type: array}}}\n", "needs type: object"},
		{"completion on cli", head + "steps:\n  - {id: a, type: cli, run: x, completion: {tool: done, schema: {type: object}}}\n", "completion configures a model call"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
		})
	}
}

func TestChainToolsLoad(t *testing.T) {
	src := `name: t
tools:
  lookup:
    description: Find a user
    input_schema: {type: object, properties: {id: {type: string}}, required: [id]}
    executor: {kind: http, url: 'https://example.com/users/{args.id}?by={input.who}'}
inputs: [who]
steps:
  - id: a
    model: m/x
    prompt: hi
    tools: [lookup, Read]
    max_turns: 5
    completion: {tool: submit, schema: {type: object, properties: {ok: {type: boolean}}}}
`
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := l.Chain
	def := c.Tool("lookup")
	if def == nil || def.Schema == nil || def.Executor.Kind != KindHTTP || def.Executor.C().URL == nil || len(c.Steps) != 1 {
		t.Fatalf("tool %+v steps %d", def, len(c.Steps))
	}
	s := c.Steps[0]
	if !s.UsesTools() || s.Turns() != 5 || s.Agent().Completion.Resolved() == nil {
		t.Errorf("step %+v", s)
	}
}
