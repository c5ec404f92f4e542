package ask

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
)

func guardedStep(t *testing.T, fields string) *chain.Step {
	t.Helper()
	l, err := chain.Parse("g.yaml", []byte("name: g\nsteps:\n  - id: s\n    type: cli\n    command: echo\n"+fields), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Chain.Steps[0]
}

func TestGuardrailRules(t *testing.T) {
	s := guardedStep(t, `    guardrails:
      - {type: min_length, value: 5}
      - {type: max_length, value: 12}
      - {type: must_contain, value: "## "}
      - {type: must_not_contain, value: "TODO"}
      - {type: regex_match, value: "^##"}
      - {type: json_valid}
    output_must_contain: ["Summary"]
    output_must_not_contain: ["I don't know"]
    output_max_length: 11
    output_schema: json
`)
	tests := []struct {
		out  string
		want []string
	}{
		{"## Summary", []string{"json_valid", "output_schema"}},
		{"ab", []string{"min_length", "must_contain", "regex_match", "json_valid", "output_must_contain", "output_schema"}},
		{"## Summary TODO", []string{"max_length", "must_not_contain", "json_valid", "output_max_length", "output_schema"}},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range guard.Check(Rules(s), tt.out) {
			got = append(got, v.Rule)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%q broke %v, want %v", tt.out, got, tt.want)
		}
	}
	if guard.Error(nil) != nil {
		t.Error("no violations must be no error")
	}
	err := guard.Error(guard.Check(Rules(s), "ab"))
	if err == nil || !strings.HasPrefix(err.Error(), "guardrail failed: min_length: output is 2 characters, fewer than 5; must_contain") {
		t.Errorf("error = %v", err)
	}
}

func TestGuardrailsCountCharactersNotBytes(t *testing.T) {
	s := guardedStep(t, "    guardrails: [{type: max_length, value: 3}]\n")
	if vs := guard.Check(Rules(s), "héé"); len(vs) != 0 {
		t.Errorf("3 characters judged too long: %v", vs)
	}
}

func TestGuardrailJSONSchema(t *testing.T) {
	s := guardedStep(t, `    guardrails:
      - type: json_schema
        value:
          type: object
          required: [verdict]
          properties:
            verdict: {enum: [ok, concerns]}
            score: {type: number, maximum: 10}
`)
	for out, want := range map[string]string{
		`{"verdict": "ok", "score": 3}`:             "",
		"```json\n{\"verdict\": \"concerns\"}\n```": "",
		`{"score": 3}`:                   `missing properties: ["verdict"]`,
		`{"verdict": "maybe"}`:           "/verdict",
		`{"verdict": "ok", "score": 11}`: "/score",
		`not json`:                       "not valid JSON",
	} {
		vs := guard.Check(Rules(s), out)
		got := ""
		for _, v := range vs {
			got += v.Message
		}
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s: got %q, want %q", out, got, want)
		}
	}
}
