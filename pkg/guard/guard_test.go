package guard

import (
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
