package run

import (
	"strings"
	"testing"
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
		_, err := ResolveInputs(c, map[string]string{"text": "hello", "code": "x"})
		if err == nil || !strings.Contains(err.Error(), `input "code": "x" is not an integer`) {
			t.Fatalf("the wrong type is not named: %v", err)
		}
		if strings.Contains(err.Error(), "missing") {
			t.Errorf("a given input is called missing: %v", err)
		}
	}
}
