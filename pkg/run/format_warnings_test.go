package run

import (
	"strings"
	"testing"
)

func TestASchemaThatCannotBeStrictIsSaid(t *testing.T) {
	c := load(t, `
name: t
steps:
  - id: loose
    model: openai/gpt-5-mini
    prompt: hi
    guardrails: [{type: json_schema, value: {type: object, properties: {a: {type: string}}}}]
  - id: tight
    model: openai/gpt-5-mini
    prompt: hi
    guardrails: [{type: json_schema, value: {type: object, properties: {a: {type: string}}, required: [a], additionalProperties: false}}]
`)
	w := Warnings(c, nil)
	if len(w) != 1 || !strings.Contains(w[0].Message, `step "loose": json_schema is sent to the provider non-strict`) || w[0].Pos.Line != 7 {
		t.Fatalf("warnings %+v", w)
	}
}
