package occ

import "github.com/chainrun/chainrun/pkg/kind/compose"

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// An OCC file (version: "1.0", a pipeline, or an OCC-only step type)
// loads what OCC runs, with a warning naming what chainrun's own format
// would refuse; the same step in chainrun's own format is refused.
func TestOCCFileReadAsOCC(t *testing.T) {
	cases := []struct {
		name, step, warning, refusal string
	}{
		{"bare word condition", "{id: a, model: openai/m, prompt: hi, condition: 'something_truthy'}",
			`condition "something_truthy" is read as OCC reads a condition`, "named something_truthy"},
		{"number equals quoted text", `{id: a, model: openai/m, prompt: hi, early_exit_if: '42 == "42"'}`,
			"early_exit_if", "mismatched types"},
		{"null condition", "{id: a, model: openai/m, prompt: hi, condition: 'null'}",
			`condition "null" is read as OCC reads`, `condition "null"`},
		{"bare input in a prompt", "{id: a, model: openai/m, prompt: 'about {topic}'}",
			"{topic} is read as {input.topic}", "no input, step output_var or pre_tools inject_as is named topic"},
		{"bare input in a pre_tool command", "{id: a, model: openai/m, prompt: '{k}', pre_tools: [{type: bash, command: 'echo {topic}', inject_as: k}]}",
			"{topic} is read as {input.topic}", "named topic"},
		{"bare input in a condition", `{id: a, model: openai/m, prompt: hi, condition: '{topic} == "x"'}`,
			"{topic} is read as {input.topic}", "named topic"},
		{"unknown context strategy", "{id: a, model: openai/m, depends_on: [src], prompt: '{s}', context_strategy: {src: compress_magic}}",
			`"compress_magic" is not full, summarize or truncate:N: the value is passed in full`, `"compress_magic" is not full, summarize or truncate:N`},
		{"secret env_var OCC reads", "{id: a, model: openai/m, prompt: '{k}', pre_tools: [{type: env_var, var_name: SESSION_COOKIE, inject_as: k}]}",
			`var_name "SESSION_COOKIE" names a secret: OCC reads it`, `var_name "SESSION_COOKIE" names a secret (its name`},
		// OCC c591dab mcp-server/src/pretool-executor.ts blocks GITHUB_TOKEN
		{"secret env_var OCC will not read", "{id: a, model: openai/m, prompt: '{k}', pre_tools: [{type: env_var, var_name: GITHUB_TOKEN, inject_as: k}]}",
			`var_name "GITHUB_TOKEN" is one OCC will not read`, `var_name "GITHUB_TOKEN" names a secret (its name`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			occAndOwn(t, "inputs: [{name: topic}]\nsteps:\n"+occSource+"  - "+tc.step+"\n", tc.warning, tc.refusal)
		})
	}
}

// occSource is a step whose output_var s the cases read.
const occSource = "  - {id: src, model: openai/m, prompt: draft, output_var: s}\n"

// occBody is a chain's body: an input topic, a step src whose output is
// s, then step.
func occBody(step string) string {
	return "inputs: [{name: topic}]\nsteps:\n" + occSource + "  - " + step + "\n"
}

// loadOCC loads body as an OCC file (it declares version: "1.0"); it
// must load.
func loadOCC(t *testing.T, body string) *chain.Loaded {
	t.Helper()
	l, err := Parse("c.yaml", []byte("name: c\nversion: \"1.0\"\n"+body), chain.Options{})
	if err != nil {
		t.Fatalf("an OCC file is refused: %v", err)
	}
	return l
}

// occAndOwn loads body as an OCC file, which must load with the warning,
// and as chainrun's own, which must be refused with the refusal.
func occAndOwn(t *testing.T, body, warning, refusal string) {
	t.Helper()
	l := loadOCC(t, body)
	if !readAsOCC(l.Chain) {
		t.Fatal("not read as OCC's")
	}
	found := false
	for _, w := range l.Warnings {
		found = found || strings.Contains(w.Message, warning)
	}
	if !found {
		t.Errorf("no warning %q in %v", warning, l.Warnings)
	}
	_, err := Parse("c.yaml", []byte("name: c\n"+body), chain.Options{})
	if err == nil || !strings.Contains(err.Error(), refusal) {
		t.Errorf("chainrun's own format: want %q, got %v", refusal, err)
	}
}

// What makes a file OCC's: its version: (with nothing OCC lacks), a
// pipeline's chains:, or a step type only OCC has; a chainrun-only
// top-level key makes it chainrun's.
func TestOCCFileRecognised(t *testing.T) {
	cases := []struct {
		src string
		occ bool
	}{
		{"name: c\nversion: '1.0'\nsteps:\n  - {id: a, model: openai/m, prompt: x}\n", true},
		{"name: c\nsteps:\n  - {id: a, model: openai/m, prompt: x}\n", false},
		{"name: c\nsteps:\n  - {id: a, type: merge, inputs: [input.x], strategy: concatenate}\ninputs: [x]\n", true},
		{"name: c\nversion: '1.0'\nkeep_going: true\nsteps:\n  - {id: a, model: openai/m, prompt: x}\n", false},
		{"name: c\nversion: '1.0'\nbudget: {max_tokens: 10}\nsteps:\n  - {id: a, model: openai/m, prompt: x}\n", false},
	}
	for _, tc := range cases {
		l, err := Parse("c.yaml", []byte(tc.src), chain.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if readAsOCC(l.Chain) != tc.occ {
			t.Errorf("%s: OCC() = %v, want %v", tc.src, !tc.occ, tc.occ)
		}
	}
}

// OCC c591dab mcp-server/tests/executor-utils.test.ts, "evaluateCondition
// (advanced)": every case (floats, contains with braces and newlines,
// equality with special strings, truthy edge cases, text that looks
// numeric, an empty comparison), and the documented forms of its
// evaluator at that commit.
func TestOCCConditionHolds(t *testing.T) {
	cases := map[string]bool{
		"3.14 < 3":                        false,
		"5.0 > 5":                         false,
		"-5":                              true,
		`{name: "test"} contains "name"`:  true,
		"line1\nline2 contains \"line1\"": true,
		`42 == "42"`:                      true,
		`true == "true"`:                  true,
		`hello world == "hello world"`:    true,
		`same != "same"`:                  false,
		"true":                            true,
		"1":                               true,
		"null":                            true,
		"undefined":                       true,
		"  false  ":                       false,
		"  0  ":                           false,
		"score: 8 > 5":                    false,
		` == ""`:                          true,
		"":                                false,
		`web_app == "web_app" || api == "api_service"`: false,
		"10 > 9":  true,
		"abc < 3": false,
	}
	for text, want := range cases {
		if got := ConditionHolds(text); got != want {
			t.Errorf("ConditionHolds(%q) = %v, want %v", text, got, want)
		}
	}
}

// OCC's own spellings (OCC b17e1ab mcp-server/tests/executor-steps.test.ts,
// "Debate steps" and "Webhook steps": debate_agents, debate_rounds,
// debate_decision, webhook_url, webhook_method, webhook_headers,
// webhook_body, webhook_retry) load as agents, rounds, strategy, url,
// method, headers, body and retry, each with a note; writing both
// spellings is an error.
func TestOCCOwnSpellings(t *testing.T) {
	src := `name: c
steps:
  - {id: d, type: debate, model: openai/m, prompt: t, debate_agents: [{role: a, prompt: x}, {role: b, prompt: y}], debate_rounds: 2, debate_decision: consensus, output_var: o}
  - {id: w, type: webhook, webhook_url: "http://127.0.0.1:9/h", webhook_method: PUT, webhook_headers: {X-Custom: v}, webhook_body: '{"data":"test"}', webhook_retry: 3, depends_on: [d]}
output: o
`
	l, err := Parse("c.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, w := l.Chain.Step("d"), l.Chain.Step("w")
	if len(compose.Debate(d).Agents) != 2 || compose.Debate(d).Rounds != 2 || compose.Merge(d).Strategy != "consensus" || w.HTTP().URL != "http://127.0.0.1:9/h" || w.HTTP().Method != "PUT" ||
		w.HTTP().Headers["X-Custom"] != "v" || w.HTTP().Body != `{"data":"test"}` || w.Retry == nil || w.Retry.Max != 4 { // webhook_retry: 3 is three retries after the first (OCC 13d9853 executor.ts)
		t.Fatalf("debate %+v webhook %+v", *compose.Debate(d), w)
	}
	var notes []string
	for _, w := range l.Warnings {
		if strings.Contains(w.Message, "OCC's own spelling") {
			notes = append(notes, w.Message)
		}
	}
	if len(notes) != 8 {
		t.Errorf("notes %q", notes)
	}
	both := strings.Replace(src, "debate_agents: [", "agents: [{role: z, prompt: z}], debate_agents: [", 1)
	if _, err := Parse("c.yaml", []byte(both), chain.Options{}); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("both spellings: %v", err)
	}
}
