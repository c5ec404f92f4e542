package chain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func mustParse(t *testing.T, src string) *Loaded {
	t.Helper()
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return l
}

// warningsOf is a loaded file's warnings, one a line.
func warningsOf(l *Loaded) string {
	var out []string
	for _, w := range l.Warnings {
		out = append(out, w.String())
	}
	return strings.Join(out, "\n")
}

func TestParseValidChain(t *testing.T) {
	l := mustParse(t, `
name: demo
description: d
version: "1.0"
inputs:
  - name: topic
    description: The topic
  - name: tone
    optional: true
  - name: lang
    default: en
steps:
  - id: a
    type: shell
    command: echo
    args: ["{input.topic}", "$.input.lang"]
    output_var: out_a
  - id: b
    type: transform
    expr: 'upper(out_a)'
    depends_on: a
    output_var: out_b
  - id: c
    depends_on: [a, b]
    prompt: |
      Combine {out_a} and {out_b|"none"} {{.out_a}} with JSON {"k": 1} and \{literal}
    model: claude-sonnet-4-6
    fallback_models: [gpt-4o-mini]
    retry: {max: 3, delay_ms: 10, backoff: 2}
    cache: {enabled: true, ttl_minutes: 5}
    guardrails:
      - {type: min_length, value: 3}
      - {type: regex_match, value: "^#"}
      - {type: json_valid}
    context_strategy: {a: full, out_b: "truncate:100"}
    condition: '{out_a} == "x"'
    early_exit_if: 'out_c contains "done"'
    output_var: out_c
output: out_c
`)
	c := l.Chain
	if c.Name != "demo" || len(c.Steps) != 3 || len(c.Inputs) != 3 {
		t.Fatalf("unexpected chain: %+v", c)
	}
	if c.Step("a").Kind != KindCLI || c.Step("c").Kind != KindAgent {
		t.Errorf("kinds: a=%s c=%s", c.Step("a").Kind, c.Step("c").Kind)
	}
	if got := c.Step("b").DependsOn; len(got) != 1 || got[0] != "a" {
		t.Errorf("scalar depends_on not accepted as a list: %v", got)
	}
	if !c.Input("topic").Required() || c.Input("tone").Required() || c.Input("lang").Required() {
		t.Error("required inputs wrong")
	}
	if c.Step("a").C().Args[1].JSONPath == nil {
		t.Error("$.input.lang was not compiled as a JSONPath")
	}
	refs := c.Step("c").C().Prompt.Refs()
	var names []string
	for _, r := range refs {
		names = append(names, r.Dotted())
	}
	if strings.Join(names, ",") != "out_a,out_b,out_a" {
		t.Errorf("prompt refs = %v", names)
	}
	if !c.NeedsModel() {
		t.Error("NeedsModel false for a chain with an agent step")
	}
}

func TestValidationErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings, each expected in the error text
	}{
		{"empty file", ``, []string{"c.yaml:1:1", "empty"}},
		{"bad yaml", "name: x\nsteps: [\n", []string{"c.yaml:"}},
		{"not a mapping", "- a\n- b\n", []string{"c.yaml:1:1", "mapping"}},
		{"missing name", "steps:\n  - {id: a, type: cli, command: x}\n", []string{"name is required"}},
		{"no steps", "name: x\nsteps: []\n", []string{"at least one step"}},
		{"unknown top field", "name: x\nstep: []\n", []string{"c.yaml:2:1", `unknown field "step"`, "did you mean steps"}},
		{"unknown step field", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    dependson: [b]\n", []string{"c.yaml:6:5", `step "a": unknown field "dependson"`, "did you mean depends_on"}},
		{"duplicate id", "name: x\nsteps:\n  - {id: a, type: cli, command: x}\n  - {id: a, type: cli, command: y}\n", []string{"c.yaml:4", `step id "a" is already used by the step at line 3`}},
		{"bad id", "name: x\nsteps:\n  - {id: 'a b', type: cli, command: x}\n", []string{`step id "a b"`}},
		{"unknown type", "name: x\nsteps:\n  - {id: a, type: shel, command: x}\n", []string{`unknown type "shel"`, "did you mean shell"}},
		{"depends on missing", "name: x\nsteps:\n  - {id: build, type: cli, command: x}\n  - {id: b, type: cli, command: x, depends_on: [biuld]}\n", []string{"c.yaml:4", `depends_on names "biuld", which is not a step`, "did you mean build"}},
		{"self dependency", "name: x\nsteps:\n  - {id: a, type: cli, command: x, depends_on: [a]}\n", []string{`step "a" depends on itself`}},
		{"cycle", "name: x\nsteps:\n  - {id: a, type: cli, command: x, depends_on: [c]}\n  - {id: b, type: cli, command: x, depends_on: [a]}\n  - {id: c, type: cli, command: x, depends_on: [b]}\n", []string{"dependency cycle: a → c → b → a"}},
		{"llm field on cli", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    model: gpt-4o\n", []string{"c.yaml:6:5", "model configures a model call; a cli step runs no model"}},
		{"field of another kind", "name: x\nsteps:\n  - id: a\n    type: transform\n    expr: '1'\n    url: http://x\n", []string{"url does not belong to a transform step", "http, webhook, browser steps"}},
		{"agent without prompt", "name: x\nsteps:\n  - id: a\n    output_var: o\n", []string{"prompt is required"}},
		{"cli without command", "name: x\nsteps:\n  - {id: a, type: cli}\n", []string{"needs command (with args) or run"}},
		{"cli command and run", "name: x\nsteps:\n  - {id: a, type: cli, command: x, run: y}\n", []string{"command or run, not both"}},
		{"command with spaces", "name: x\nsteps:\n  - {id: a, type: cli, command: go test ./...}\n", []string{"holds spaces", "use run"}},
		{"http without url", "name: x\nsteps:\n  - {id: a, type: http}\n", []string{"url is required"}},
		{"bad method", "name: x\nsteps:\n  - {id: a, type: http, url: 'http://x', method: FETCH}\n", []string{`method "FETCH"`}},
		{"transform without expr", "name: x\nsteps:\n  - {id: a, type: transform}\n", []string{"expr is required"}},
		{"file without path", "name: x\nsteps:\n  - {id: a, type: file}\n", []string{"path is required"}},
		{"bad condition", "name: x\nsteps:\n  - {id: a, type: cli, command: x, condition: '1 +* 2'}\n", []string{`condition "1 +* 2"`, "does not parse"}},
		{"condition names unknown var", "name: x\nsteps:\n  - {id: a, type: cli, command: x, condition: '{nope} == \"y\"'}\n", []string{"condition", "no input, step output_var or pre_tools inject_as is named nope"}},
		{"early exit names unknown var", "name: x\nsteps:\n  - {id: a, type: cli, command: x, early_exit_if: 'ghost > 3'}\n", []string{"early_exit_if", "named ghost"}},
		{"unknown reference", "name: x\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{missing}']}\n", []string{"c.yaml:3", "{missing}", "no input, step output_var or pre_tools inject_as is named missing"}},
		{"unknown input reference", "name: x\ninputs: [{name: topic}]\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{input.topc}']}\n", []string{"no input is named topc", "did you mean topic"}},
		{"reference without dependency", "name: x\nsteps:\n  - {id: a, type: cli, command: echo, args: [hi], output_var: out_a}\n  - {id: b, type: cli, command: echo, args: ['{out_a}']}\n", []string{`out_a is the output of step "a", which "b" does not depend on (add it to depends_on)`}},
		{"own output", "name: x\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{o}'], output_var: o}\n", []string{"o is this step's own output"}},
		{"output names nothing", "name: x\nsteps:\n  - {id: a, type: cli, command: echo, output_var: result}\noutput: reslt\n", []string{"c.yaml:4:9", `output "reslt" names no step's output_var`, "did you mean result"}},
		{"duplicate output_var", "name: x\nsteps:\n  - {id: a, type: cli, command: x, output_var: o}\n  - {id: b, type: cli, command: x, output_var: o}\n", []string{`output_var "o" is already the output of step "a"`}},
		{"bad output_var", "name: x\nsteps:\n  - {id: a, type: cli, command: x, output_var: my-var}\n", []string{`output_var "my-var"`}},
		{"reserved output_var", "name: x\nsteps:\n  - {id: a, type: cli, command: x, output_var: input}\n", []string{`output_var "input" is reserved`}},
		{"huge timeout", "name: x\nsteps:\n  - {id: a, type: cli, command: x, timeout_ms: 9223372036854775807}\n", []string{"c.yaml:3", "timeout_ms 9223372036854775807 is more than 604800000"}},
		{"retry max_delay_ms past an hour", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    retry: {max: 2, delay_ms: 10, max_delay_ms: 3600001}\n", []string{"c.yaml:6", "retry.max_delay_ms 3600001 is more than 3600000 (one hour)"}},
		{"negative retry max_delay_ms", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    retry: {max: 2, max_delay_ms: -1}\n", []string{"c.yaml:6", "retry.delay_ms, retry.backoff and retry.max_delay_ms cannot be negative"}},
		{"huge retry delay", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    retry: {max: 1000000000, delay_ms: 9223372036854775807, backoff: 2}\n", []string{"c.yaml:6", "retry.delay_ms 9223372036854775807 is more than 3600000"}},
		{"huge backoff", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    retry: {max: 3, delay_ms: 1, backoff: 1e308}\n", []string{"c.yaml:6", "retry.backoff 1e+308 is more than 10"}},
		{"infinite backoff", "name: x\nsteps:\n  - {id: a, type: cli, command: x, retry: {max: 3, backoff: .inf}}\n", []string{"retry.backoff +Inf"}},
		{"huge retry max", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    retry: {max: 9223372036854775807}\n", []string{"c.yaml:6", "retry.max 9223372036854775807 is more than 1000"}},
		{"huge retry shorthand", "name: x\nsteps:\n  - {id: a, type: cli, command: x, retry: 1001}\n", []string{"c.yaml:3", "retry.max 1001 is more than 1000"}},
		{"retry max zero", "name: x\nsteps:\n  - {id: a, type: cli, command: x, retry: {max: 0}}\n", []string{"retry.max"}},
		{"bad guardrail", "name: x\nsteps:\n  - {id: a, type: cli, command: x, guardrails: [{type: min_lenght, value: 3}]}\n", []string{`unknown guardrail type "min_lenght"`, "did you mean min_length"}},
		{"bad regex", "name: x\nsteps:\n  - {id: a, type: cli, command: x, guardrails: [{type: regex_match, value: '('}]}\n", []string{"regex_match"}},
		{"bad strategy", "name: x\nsteps:\n  - {id: a, prompt: p, context_strategy: {a: squash}}\n", []string{`"squash" is not full, summarize or truncate:N`}},
		{"bad output_schema", "name: x\nsteps:\n  - {id: a, type: cli, command: x, output_schema: xml}\n", []string{"output_schema is json, markdown or text"}},
		{"wrong type", "name: x\nsteps:\n  - {id: a, type: cli, command: x, timeout_ms: soon}\n", []string{"c.yaml:3:", "soon"}},
		{"bad jsonpath", "name: x\nsteps:\n  - {id: a, type: cli, command: x, args: ['$.[']}\n", []string{"not a valid JSONPath"}},
		{"jsonpath unknown input", "name: x\ninputs: [svc]\nsteps:\n  - {id: a, type: cli, command: x, args: ['$.input.service']}\n", []string{"no input is named service"}},
		{"default outside enum", "name: x\ninputs: [{name: env, enum: [staging, production], default: prod}]\nsteps:\n  - {id: s, type: cli, command: x}\n", []string{`input "env": default "prod" is not one of its enum values (staging, production)`}},
		{"duplicate input", "name: x\ninputs: [a, a]\nsteps:\n  - {id: s, type: cli, command: x}\n", []string{`input "a" is declared twice`}},
		{"unknown input field", "name: x\ninputs:\n  - {name: a, requird: true}\nsteps:\n  - {id: s, type: cli, command: x}\n", []string{`unknown field "requird"`}},
		{"pre_tool without inject_as", "name: x\nsteps:\n  - {id: a, prompt: p, pre_tools: [{type: shell, command: ls}]}\n", []string{"needs inject_as"}},
		{"pre_tool bad type", "name: x\nsteps:\n  - {id: a, prompt: p, pre_tools: [{type: ftp, inject_as: d}]}\n", []string{`pre_tool type "ftp"`}},
		{"for_each not a var", "name: x\nsteps:\n  - {id: a, type: cli, command: echo, for_each: 'a b'}\n", []string{"for_each names one list variable"}},
		{"item outside loop", "name: x\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{item}']}\n", []string{"named item"}},
		{"condition names unknown input", "name: x\ninputs: [environment]\nsteps:\n  - {id: a, type: cli, command: x, condition: '{input.enviroment} == \"prod\"'}\n", []string{"no input is named enviroment", "did you mean environment"}},
		{"expr names unknown input", "name: x\ninputs: [n]\nsteps:\n  - {id: a, type: transform, expr: 'input.m + 1'}\n", []string{"no input is named m"}},
		{"duplicate top key", "name: x\nsteps:\n  - {id: a, type: cli, command: x}\nsteps:\n  - {id: b, type: cli, command: x}\n", []string{"c.yaml:4:1", "steps is given twice (first at line 2)"}},
		{"duplicate step key", "name: x\nsteps:\n  - id: a\n    type: cli\n    command: x\n    command: y\n", []string{"c.yaml:6:5", `step "a": command is given twice`}},
		{"status collision", "name: x\nsteps:\n  - {id: a, type: cli, command: x, output_var: r_status}\n  - {id: b, type: http, url: 'http://x', output_var: r}\n", []string{"also sets r_status"}},
		{"broken schema", "name: x\nsteps:\n  - {id: a, type: cli, command: x, guardrails: [{type: json_schema, value: {type: 12}}]}\n", []string{"guardrail json_schema"}},
		{"unknown tool", "name: x\nsteps:\n  - {id: a, prompt: p, tools: [Read, Bsh]}\n", []string{`unknown tool "Bsh"`, "did you mean Bash"}},
		{"cache with tools", "name: x\nsteps:\n  - id: a\n    prompt: p\n    tools: [Read]\n    cache: {enabled: true}\n", []string{"c.yaml:6:5", `step "a": cache cannot be used with tools`}},
		{"cache: true with a chain's tool", "name: x\ntools:\n  t: {description: d, input_schema: {type: object}, executor: {kind: cli, run: echo}}\nsteps:\n  - {id: a, prompt: p, tools: t, cache: true}\n", []string{"c.yaml:5", "cache cannot be used with tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tt.src), Options{})
			if err == nil {
				t.Fatal("Parse accepted an invalid chain")
			}
			if !IsValidation(err) {
				t.Fatalf("error is not a ValidationError: %T %v", err, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%s", w, err)
				}
			}
		})
	}
}

func TestAnchorsAndMergeKeys(t *testing.T) {
	l := mustParse(t, `
name: x
x-common: &common
  type: cli
steps:
  - &base
    <<: *common
    id: a
    command: echo
    args: [one]
    retry: {max: 2}
    timeout_ms: 1000
  - <<: *base
    id: b
    args: [two]
    depends_on: a
`)
	b := l.Chain.Step("b")
	if b == nil || keyValue(b, "command") != "echo" || keyValue(b, "args").([]string)[0] != "two" || b.Retry.Max != 2 || b.TimeoutMS != 1000 || b.DependsOn[0] != "a" {
		t.Fatalf("merged step = %+v", b)
	}
}

func TestMergeCyclesAreErrors(t *testing.T) {
	for _, src := range []string{
		"name: x\nsteps:\n  - &s\n    id: a\n    <<: *s\n",
		"name: x\nx-a: &a {<<: *b}\nx-b: &b {<<: *a}\nsteps: []\n",
		"&r\nname: x\n<<: *r\nsteps: []\n",
		"name: x\ninputs: [&i {name: a, <<: *i}]\nsteps: [{id: s, type: cli, command: x}]\n",
		"name: x\nsteps: [{id: s, type: cli, command: x, retry: &r {max: 2, <<: *r}}]\n",
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Parse("m.yaml", []byte(src), Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%q was accepted", src)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer for %q", src)
		}
	}
}

func TestUnusedOutputIsAWarning(t *testing.T) {
	l := mustParse(t, "name: x\nsteps:\n  - {id: a, type: cli, command: echo, output_var: never_read}\n  - {id: b, type: cli, command: echo, output_var: used}\n  - {id: c, type: cli, command: echo, args: ['{used}'], depends_on: [b]}\n")
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0].String(), "c.yaml:3:") || !strings.Contains(l.Warnings[0].String(), "output_var never_read is never read") {
		t.Fatalf("warnings = %v", l.Warnings)
	}
	if !l.Warnings[0].Lint {
		t.Error("an unread output_var is not a Lint: every run would repeat it")
	}
	l, err := Parse("c.yaml", []byte("name: x\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{missing}']}\n"), Options{LenientVariables: true})
	if err != nil || len(l.Warnings) != 1 || l.Warnings[0].Lint {
		t.Errorf("a warning about what a run does is a Lint: %v %v", l.Warnings, err)
	}
}

func TestLenientVariablesWarns(t *testing.T) {
	src := "name: x\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{missing}']}\n"
	l, err := Parse("c.yaml", []byte(src), Options{LenientVariables: true})
	if err != nil {
		t.Fatalf("lenient mode rejected an unknown reference: %v", err)
	}
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0].String(), "{missing} stays literal") {
		t.Fatalf("warnings = %v", l.Warnings)
	}
	// A reference to a real variable that is out of reach is still an error.
	src = "name: x\nsteps:\n  - {id: a, type: cli, command: echo, output_var: o}\n  - {id: b, type: cli, command: echo, args: ['{o}']}\n"
	if _, err := Parse("c.yaml", []byte(src), Options{LenientVariables: true}); err == nil {
		t.Fatal("lenient mode accepted a reference to a step that is not a dependency")
	}
}

func TestValidationReportsAllErrors(t *testing.T) {
	src := "name: x\nsteps:\n  - {id: a, type: cli}\n  - {id: b, type: http}\n"
	_, err := Parse("c.yaml", []byte(src), Options{})
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Diagnostics) != 2 {
		t.Fatalf("want 2 findings, got %v", err)
	}
}
