package run

import (
	"context"
	"strings"
	"testing"
)

// OCC 59941a8 mcp-server/tests/executor-coverage-boost.test.ts, "Input
// validation", and e3cf5fe typed-inputs.test.ts, "Executor — input
// validation": a value that breaks its input's type or rules is refused
// before any step runs, naming the input and saying why (OCC's words:
// "must be one of", "does not match pattern", "at least 5 characters",
// ">= 18"); a default applies when the input is not given.
func TestOCCInputValidation(t *testing.T) {
	cases := []struct {
		name, input, value, want string
		ok                       bool
	}{
		{"number", "{name: count, type: number}", "abc", `"abc" is not a number`, false},
		{"boolean refused", "{name: flag, type: boolean}", "maybe", `"maybe" is not true or false`, false},
		{"boolean accepted", "{name: flag, type: boolean}", "true", "true", true},
		{"enum", "{name: level, type: enum, enum: [low, medium, high]}", "extreme", `"extreme" is not one of low, medium, high`, false},
		{"enum accepted", "{name: level, type: enum, enum: [low, medium, high]}", "high", "high", true},
		{"url", "{name: site, type: url}", "not-a-url", "is not an http or https URL", false},
		{"pattern", `{name: code, pattern: "^[A-Z]{3}$"}`, "abcd", `"abcd" does not match pattern ^[A-Z]{3}$`, false},
		{"pattern accepted", `{name: code, pattern: "^[A-Z]{3}$"}`, "ABC", "ABC", true},
		{"min_length", "{name: code, min_length: 5}", "ab", "must be at least 5 characters (it has 2)", false},
		{"max_length", "{name: code, max_length: 5}", "toolong", "must be at most 5 characters (it has 7)", false},
		{"min", "{name: age, type: number, min: 18}", "5", "5 must be >= 18", false},
		{"max", "{name: age, type: number, max: 100}", "200", "200 must be <= 100", false},
		{"range accepted", "{name: age, type: integer, min: 1, max: 10}", "5", "5", true},
		{"json", "{name: config, type: json}", "not json", `"not json" is not JSON`, false},
		{"json accepted", "{name: config, type: json}", `{"k": 1}`, `{"k":1}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.TrimSuffix(strings.Fields(tc.input)[1], ",")
			c := load(t, occHead+"inputs: ["+tc.input+"]\nsteps:\n  - {id: s1, type: transform, operation: template, template_str: '{"+name+"}', output_var: result}\noutput: result\n")
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{name: tc.value}})
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `input "`+name+`"`) {
					t.Fatalf("err %v, want one naming input %s and saying %q", err, name, tc.want)
				}
				return
			}
			if err != nil || outputText(res) != tc.want {
				t.Fatalf("err %v, output %q, want %q", err, outputText(res), tc.want)
			}
		})
	}
}

// OCC 59941a8 executor-coverage-boost.test.ts, "applies default value
// for missing input", and e3cf5fe typed-inputs.test.ts ("treats empty
// string as missing for required inputs", "default overrides empty
// string"): in an OCC file an input given as "" is not given — its
// default applies, and a required one is missing. chainrun's own format
// keeps the "" given.
func TestOCCEmptyInputIsNotGiven(t *testing.T) {
	src := func(head string) string {
		return head + "inputs: [{name: greeting, default: Hello}, {name: topic, optional: true}]\nsteps:\n" +
			"  - {id: s1, type: transform, operation: template, template_str: '[{input.greeting}]', output_var: result}\noutput: result\n"
	}
	for _, tc := range []struct {
		head   string
		inputs map[string]string
		want   string
	}{
		{occHead, nil, "[Hello]"},
		{occHead, map[string]string{"greeting": ""}, "[Hello]"},
		{"name: t\n", map[string]string{"greeting": ""}, "[]"},
	} {
		if res := runChain(t, src(tc.head), tc.inputs); outputText(res) != tc.want {
			t.Errorf("%q with %v: output %q, want %q", tc.head, tc.inputs, outputText(res), tc.want)
		}
	}
	c := load(t, occHead+"inputs: [{name: topic}]\nsteps:\n  - {id: s1, type: transform, operation: template, template_str: '{input.topic}', output_var: result}\noutput: result\n")
	_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"topic": ""}})
	if err == nil || !strings.Contains(err.Error(), `missing required input "topic"`) {
		t.Fatalf("a required input given as \"\" in an OCC file: err %v, want it missing", err)
	}
}
