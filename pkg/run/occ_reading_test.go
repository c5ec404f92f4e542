package run

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// The cases below are OCC's behaviour (lacausecrypto/OCC, mcp-server)
// run by chainrun on a file read as OCC's (version: "1.0", as OCC's
// chains declare it). Each names the OCC test it comes from; where
// reference 004 and OCC's test disagree, the reference wins and the case
// says so.

const occHead = "name: t\nversion: \"1.0\"\n"

// echoServer answers every request with its last user message.
func echoServer() *llmtest.Server {
	return llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: r.LastUserMessage()} })
}

// OCC c591dab mcp-server/tests/executor-utils.test.ts, "evaluateCondition
// (advanced)" (truthy edge cases, equality with special strings), and
// executor-steps.test.ts's condition cases: a condition runs or skips its
// step as OCC's evaluator reads it.
func TestOCCConditionsRunAsOCCReadsThem(t *testing.T) {
	s := echoServer()
	defer s.Close()
	cases := []struct {
		name, condition string
		runs            bool
	}{
		{"bare word is truthy", "something_truthy", true},
		{"1 is truthy", "1", true},
		{"null is truthy", "null", true},
		{"0 is falsy", "0", false},
		{"false with spaces is falsy", "'  false  '", false},
		{"number equals quoted text", `'42 == "42"'`, true},
		{"true equals quoted true", `'true == "true"'`, true},
		{"same != same is false", `'same != "same"'`, false},
		{"a variable compared as text", `'{flag} == "007"'`, true},
		{"a bare input compared as text", `'{mode} contains "fast"'`, true},
		{"float greater", "'8.5 > 7'", true},
		{"text is not a number", "'score: 8 > 5'", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runChain(t, occHead+`inputs: [{name: mode}]
steps:
  - {id: f, type: cli, command: echo, args: ["007"], output_var: flag}
  - id: ask
    model: openai/m
    depends_on: [f]
    condition: `+tc.condition+`
    prompt: hi
    output_var: a
output: a
`, map[string]string{"mode": "very fast"}, WithModels(registryFor(s, nil)))
			got := step(t, res, "ask").Status
			if want := map[bool]StepStatus{true: StepSucceeded, false: StepSkipped}[tc.runs]; got != want {
				t.Fatalf("condition %s: step %s, want %s (err %s)", tc.condition, got, want, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, early_exit_if: OCC
// judges it before the step runs and skips the step itself; reference
// 004 ("If the condition evaluates to true after this step completes,
// remaining waves are skipped") wins: the step runs, the waves after it
// do not. The condition is OCC's text: a bare word holds.
func TestOCCEarlyExitAfterTheStepAsReference004Says(t *testing.T) {
	s := echoServer()
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - {id: first, model: openai/m, prompt: found, output_var: answer, early_exit_if: 'stop_now'}
  - {id: second, model: openai/m, depends_on: [first], prompt: "more {answer}", output_var: b}
output: answer
`, nil, WithModels(registryFor(s, nil)))
	if step(t, res, "first").Status != StepSucceeded || step(t, res, "second").Status != StepSkipped || res.Output != "found" {
		t.Fatalf("first %s second %s output %#v", step(t, res, "first").Status, step(t, res, "second").Status, res.Output)
	}
}

// OCC c591dab mcp-server/tests/executor-utils.test.ts, "resolveVariables
// (advanced)": {greeting} about {input.topic}; OCC resolves a bare
// {topic} to the input of that name too.
func TestOCCBareInputReference(t *testing.T) {
	s := echoServer()
	defer s.Close()
	for _, prompt := range []string{"about {topic}", "about {input.topic}", `about {topic|"none"}`} {
		res := runChain(t, occHead+`inputs: [{name: topic}]
steps:
  - {id: ask, model: openai/m, prompt: '`+prompt+`', output_var: a}
output: a
`, map[string]string{"topic": "AI safety"}, WithModels(registryFor(s, nil)))
		if res.Output != "about AI safety" {
			t.Errorf("prompt %q: output %#v err %s", prompt, res.Output, res.Error)
		}
	}
}

// OCC c591dab mcp-server/tests/claude-runner-core.test.ts,
// "applyContextStrategy (extended)": truncate:N keeps N characters and
// says "[truncated from M chars]"; text at the limit is unchanged;
// truncate:0 cuts all; an unknown strategy ("compress_magic") leaves the
// value unchanged.
func TestOCCContextStrategy(t *testing.T) {
	s := echoServer()
	defer s.Close()
	cases := []struct{ text, strategy, want string }{
		{strings.Repeat("a", 500), "truncate:100", strings.Repeat("a", 100) + "\n[truncated from 500 chars]"},
		{strings.Repeat("x", 100), "truncate:100", strings.Repeat("x", 100)},
		{strings.Repeat("x", 101), "truncate:100", strings.Repeat("x", 100) + "\n[truncated from 101 chars]"},
		{"any content", "truncate:0", "\n[truncated from 11 chars]"},
		{"original", "compress_magic", "original"},
		{"important data here", "full", "important data here"},
	}
	for _, tc := range cases {
		res := runChain(t, occHead+`steps:
  - {id: big, type: cli, command: printf, args: ["%s", "`+tc.text+`"], output_var: big}
  - {id: ask, model: openai/m, depends_on: [big], prompt: "{big}", context_strategy: {big: "`+tc.strategy+`"}, output_var: a}
output: a
`, nil, WithModels(registryFor(s, nil)))
		if res.Output != tc.want {
			t.Errorf("%s of %d chars: output %q, want %q (err %s)", tc.strategy, len(tc.text), res.Output, tc.want, res.Error)
		}
	}
}

// OCC c591dab mcp-server/tests/claude-runner-core.test.ts, "default retry
// behavior: does not retry when retry config is absent (max=1)", and
// reference 004 ("max: 3 # Max attempts (default: 1 = no retry)"): an OCC
// file's step without retry: sends one request; retry: {max: 2} two.
func TestOCCNoRetryMeansOneRequest(t *testing.T) {
	for _, tc := range []struct {
		retry    string
		requests int
	}{{"", 1}, {", retry: {max: 2, delay_ms: 1}", 2}} {
		s := llmtest.New(llmtest.Reply{Status: 500}, llmtest.Reply{Status: 500}, llmtest.Reply{Status: 500})
		res := runChain(t, occHead+`steps:
  - {id: ask, model: openai/m, prompt: hi, output_var: a`+tc.retry+`}
output: a
`, nil, WithModels(registryFor(s, nil)))
		if res.Status != Failed || s.Count() != tc.requests {
			t.Errorf("retry %q: status %s after %d requests, want failed after %d", tc.retry, res.Status, s.Count(), tc.requests)
		}
		s.Close()
	}
}

// OCC c591dab mcp-server/tests/claude-runner-core.test.ts, "model
// fallback: cycles through fallback_models", and reference 004's order
// ("attempt with primary model → retry with primary → fallback model 1 →
// fallback model 2").
func TestOCCRetryThenFallbackOrder(t *testing.T) {
	var asked []string
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		m, _ := r.Body["model"].(string)
		asked = append(asked, m)
		if m != "c" {
			return llmtest.Reply{Status: 503}
		}
		return llmtest.Reply{Text: "success with fallback"}
	})
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - {id: ask, model: openai/a, fallback_models: [openai/b, openai/c], retry: {max: 2, delay_ms: 1}, prompt: hi, output_var: a}
output: a
`, nil, WithModels(registryFor(s, nil)))
	if res.Output != "success with fallback" || !slices.Equal(asked, []string{"a", "a", "b", "b", "c"}) {
		t.Fatalf("output %#v, models asked %v", res.Output, asked)
	}
}

// OCC c591dab mcp-server/tests/pretool-executor.test.ts (env_var reads a
// variable, whatever its name): an OCC file's env_var pre_tool may read
// a credential-like variable; the prompt gets it, and no view of the run
// (result, events) shows it.
func TestOCCEnvVarSecretIsReadAndMasked(t *testing.T) {
	s := echoServer()
	defer s.Close()
	rec := &event.Recorder{}
	const secret = "sk-live-0123456789"
	res := runChain(t, occHead+`steps:
  - id: ask
    model: openai/m
    prompt: "key {k}"
    pre_tools: [{type: env_var, var_name: SERVICE_API_KEY, inject_as: k}]
    output_var: a
output: a
`, nil, WithModels(registryFor(s, nil)), WithEnv(map[string]string{"SERVICE_API_KEY": secret}), WithEvents(rec))
	if res.Status != Succeeded || s.Requests()[0].LastUserMessage() != "key "+secret {
		t.Fatalf("status %s err %s; the model was sent %q", res.Status, res.Error, s.Requests()[0].LastUserMessage())
	}
	shown, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	if strings.Contains(string(shown), secret) || strings.Contains(string(evs), secret) || res.Output != "key ***" {
		t.Fatalf("the secret is shown: output %#v\nresult %s", res.Output, shown)
	}
}

// OCC's own spellings debate_agents (its debate tests) and webhook_url
// (its webhook tests, b17e1ab mcp-server/tests/webhook.test.ts) run as
// agents and url.
func TestOCCOwnSpellingsRun(t *testing.T) {
	s := echoServer()
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - id: deb
    type: debate
    model: openai/m
    prompt: topic
    strategy: last_round
    debate_agents: [{role: pro, prompt: "for it"}, {role: con, prompt: "against it"}]
    output_var: out
output: out
`, nil, WithModels(registryFor(s, nil)))
	if out, _ := res.Output.(string); res.Status != Succeeded || !strings.Contains(out, "for it") || !strings.Contains(out, "against it") {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
}
