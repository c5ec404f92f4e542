package chain

import "testing"

// TestASchemasUnknownTypeIsNamed: a JSON Schema type that is none of the
// seven (a typo) is an error naming it, with the nearest name, wherever a
// chain writes a schema — a transition's inputSchema, a json_schema
// guardrail, a completion tool's schema — and nested ones too, among the
// file's other errors; a property named type is no type.
func TestASchemasUnknownTypeIsNamed(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"transition inputSchema, nested", wfHead + "      a:\n        transitions:\n          go:\n            target: b\n            actor: human\n            inputSchema: {type: object, properties: {k: {type: strng}, o: {type: object, properties: {n: {type: [intger, 'null']}}}}}\n          bad: {target: nowhere, actor: human}\n      b: {terminal: true}\n",
			[]string{`transition "go": inputSchema: type "strng" (did you mean string?)`, `type "intger" (did you mean integer?)`, `target "nowhere" is not a state`}},
		{"json_schema guardrail", "name: c\nsteps:\n  - {id: a, type: agent, model: openai/m, prompt: p, guardrails: [{type: json_schema, value: {type: object, properties: {xs: {type: array, items: {type: numbr}}}}}], depends_on: [zz]}\n",
			[]string{`type "numbr" (did you mean number?)`, `depends_on names "zz"`}},
		{"completion schema", "name: c\nsteps:\n  - {id: a, type: agent, model: openai/m, prompt: p, tools: [Read], completion: {tool: done, schema: {type: object, properties: {type: {type: string}, n: {type: objekt}}}}}\n",
			[]string{`type "objekt" (did you mean object?)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFindings(t, c.src, c.want, []string{`"type" (did you mean`}) })
	}
}
