package guard

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func TestCheckRules(t *testing.T) {
	schema, err := (&jsonschema.Schema{Type: "object", Required: []string{"verdict"}}).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	rules := []Rule{
		{Type: "min_length", Value: 3},
		{Type: "output_max_length", Value: 20},
		{Type: "must_contain", Value: "verdict"},
		{Type: "output_must_not_contain", Value: "TODO"},
		{Type: "regex_match", Pattern: regexp.MustCompile(`^[{` + "`" + `]`)},
		{Type: "json_schema", Schema: schema},
	}
	tests := []struct {
		out  string
		want string
	}{
		{`{"verdict": "ok"}`, ""},
		{"```json\n{\"verdict\": 1}\n```", "output_max_length"},
		{`{"x": "TODO"}`, "must_contain,output_must_not_contain,json_schema"},
		{"no", "min_length,must_contain,regex_match,json_schema"},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range Check(rules, tt.out) {
			got = append(got, v.Rule)
		}
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%q broke %v, want %v", tt.out, got, tt.want)
		}
	}
}

func TestJSONText(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                  `{"a":1}`,
		"```json\n{\"a\":1}\n```":  `{"a":1}`,
		"  ```\n[1]\n```  ":        `[1]`,
		"plain text":               "plain text",
		"```json\n{\"a\":1}\n```x": "{\"a\":1}\n```x",
	} {
		if got := JSONText(in); got != want {
			t.Errorf("JSONText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSchemaProblemWritesBoundsAsAPersonDoes holds that a bound's message
// shows its numbers as written (12, 2.5, 10), not as the validator's
// fractions and six decimals.
func TestSchemaProblemWritesBoundsAsAPersonDoes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"validating root: validating /properties/n: maximum: 12/1 is greater than 10.000000", "validating /properties/n: maximum: 12 is greater than 10"},
		{"minimum: 5/2 is less than 3.500000", "minimum: 2.5 is less than 3.5"},
		{"exclusiveMaximum: -3/1 is greater than or equal to -4.000000", "exclusiveMaximum: -3 is greater than or equal to -4"},
		{"multipleOf: 7/1 is not a multiple of 0.250000", "multipleOf: 7 is not a multiple of 0.25"},
		{`enum: "12/1" does not equal any of: [a b]`, `enum: "12/1" does not equal any of: [a b]`},
	} {
		if got := SchemaProblem(errors.New(tc.in)); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
