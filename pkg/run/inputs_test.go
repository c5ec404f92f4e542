package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/given"
)

// TestWrongTypedInputIsNotMissing holds that an input given with a value
// of the wrong type for a workflow's inputSchema is reported as such, and
// never also as missing.
func TestWrongTypedInputIsNotMissing(t *testing.T) {
	for _, src := range []string{`
version: "1"
workflows:
  t:
    inputSchema:
      type: object
      required: [text, code]
      properties:
        text: {type: string}
        code: {type: integer}
    initialState: done
    states:
      done: {goal: done, terminal: true}
`} {
		c := load(t, src)
		_, err := given.ResolveInputs(c, map[string]string{"text": "hello", "code": "x"})
		if err == nil || !strings.Contains(err.Error(), `input "code": "x" is not an integer`) {
			t.Fatalf("the wrong type is not named: %v", err)
		}
		if strings.Contains(err.Error(), "missing") {
			t.Errorf("a given input is called missing: %v", err)
		}
	}
}

// TestEnumInputs holds a chain's input to the values its enum lists, as a
// workflow's inputSchema enum holds its own, and reads the schema's enum
// into the input (for completion and list).
func TestEnumInputs(t *testing.T) {
	c := load(t, `
name: t
inputs:
  - {name: env, enum: [staging, production], default: staging}
steps:
  - {id: s, type: cli, command: echo, args: ["{input.env}"]}
`)
	if _, err := given.ResolveInputs(c, map[string]string{"env": "prod"}); err == nil || !strings.Contains(err.Error(), `input "env": "prod" is not one of staging, production`) {
		t.Errorf("a value outside the enum: %v", err)
	}
	if got, err := given.ResolveInputs(c, map[string]string{"env": "production"}); err != nil || got["env"] != "production" {
		t.Errorf("a value of the enum: %v %v", got, err)
	}
	if got, err := given.ResolveInputs(c, nil); err != nil || got["env"] != "staging" {
		t.Errorf("the default: %v %v", got, err)
	}
	w := load(t, `
version: "1"
workflows:
  t:
    inputSchema:
      type: object
      properties:
        env: {type: string, enum: [staging, production]}
        n: {type: integer, enum: [1, 2]}
    initialState: done
    states:
      done: {goal: done, terminal: true}
`)
	if got := w.Input("env").Enum; strings.Join(got, ",") != "staging,production" {
		t.Errorf("schema enum: %q", got)
	}
	if got := w.Input("n").Enum; strings.Join(got, ",") != "1,2" {
		t.Errorf("schema enum of numbers: %q", got)
	}
	if _, err := given.ResolveInputs(w, map[string]string{"env": "qa"}); err == nil || !strings.Contains(err.Error(), "env") {
		t.Errorf("the schema's enum: %v", err)
	}
}

// TestTypedChainInputs: a chain's inputs[].type (OCC) refuses a value of
// another type, naming the input, and keeps a good one as written.
func TestTypedChainInputs(t *testing.T) {
	c := load(t, `
name: t
inputs:
  - {name: url, type: url}
  - {name: n, type: number, optional: true}
  - {name: on, type: boolean, optional: true}
  - {name: tags, type: array, optional: true}
  - {name: topic, type: string, optional: true}
steps:
  - {id: s, type: cli, command: echo, args: ["{input.url}"]}
`)
	cases := []struct {
		given map[string]string
		err   string
	}{
		{map[string]string{"url": "https://example.com/a?b=1", "n": "3.50", "on": "true", "tags": `["a"]`, "topic": "anything"}, ""},
		{map[string]string{"url": "example.com"}, `input "url": "example.com" is not an http or https URL (as https://example.com/page)`},
		{map[string]string{"url": "ftp://example.com/x"}, `input "url": "ftp://example.com/x" is not an http or https URL`},
		{map[string]string{"url": "http://h", "n": "three"}, `input "n": "three" is not a number`},
		{map[string]string{"url": "http://h", "on": "maybe"}, `input "on": "maybe" is not true or false`},
		{map[string]string{"url": "http://h", "tags": `{"a": 1}`}, `input "tags": "{\"a\": 1}" is not a JSON array`},
	}
	for _, tc := range cases {
		got, err := given.ResolveInputs(c, tc.given)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%v: %v", tc.given, err)
		case tc.err == "" && got["n"] != "3.50":
			t.Errorf("a number is not kept as written: %q", got["n"])
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: got %v, want %s", tc.given, err, tc.err)
		}
	}
}
