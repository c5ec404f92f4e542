package run

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
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
  - {id: f, type: transform, operation: template, template_str: "007", output_var: flag}
  - id: ask
    model: openai/m
    depends_on: [f]
    condition: `+tc.condition+`
    prompt: hi
    output_var: a
output: a
`, map[string]string{"mode": "very fast"}, WithModels(registryFor(s, nil)))
			got := step(t, res, "ask").Status
			if want := map[bool]record.StepStatus{true: record.StepSucceeded, false: record.StepSkipped}[tc.runs]; got != want {
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
	if step(t, res, "first").Status != record.StepSucceeded || step(t, res, "second").Status != record.StepSkipped || res.Output != "found" {
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
  - {id: big, type: transform, operation: template, template_str: "`+tc.text+`", output_var: big}
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
		if res.Status != record.Failed || s.Count() != tc.requests {
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
// variable) and mcp-server/src/pretool-executor.ts (a name that matches
// none of ENV_VAR_BLOCKED_PATTERNS is read): an OCC file's env_var
// pre_tool may read a variable chainrun's own format takes for a secret
// (SESSION_COOKIE; OCC blocks KEY, TOKEN… itself: TestOCCEnvVarOCCWillNotRead);
// the prompt gets it, and no view of the run (result, events) shows it.
func TestOCCEnvVarSecretIsReadAndMasked(t *testing.T) {
	s := echoServer()
	defer s.Close()
	rec := &event.Recorder{}
	const secret = "sk-live-0123456789"
	res := runChain(t, occHead+`steps:
  - id: ask
    model: openai/m
    prompt: "key {k}"
    pre_tools: [{type: env_var, var_name: SESSION_COOKIE, inject_as: k}]
    output_var: a
output: a
`, nil, WithModels(registryFor(s, nil)), WithEnv(map[string]string{"SESSION_COOKIE": secret}), WithEvents(rec))
	if res.Status != record.Succeeded || s.Requests()[0].LastUserMessage() != "key "+secret {
		t.Fatalf("status %s err %s; the model was sent %q", res.Status, res.Error, s.Requests()[0].LastUserMessage())
	}
	shown, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	if strings.Contains(string(shown), secret) || strings.Contains(string(evs), secret) || res.Output != "key ***" {
		t.Fatalf("the secret is shown: output %#v\nresult %s", res.Output, shown)
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Webhook steps":
// "uses custom webhook_method and webhook_headers" (PUT, the header and
// the body as written) and "retries on failure and eventually succeeds"
// (webhook_retry: 3, two 500s, then the answer is the output).
func TestOCCWebhookOwnSpellings(t *testing.T) {
	var calls int
	var method, header, body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		b, _ := io.ReadAll(r.Body)
		method, header, body = r.Method, r.Header.Get("X-Custom"), string(b)
		if calls < 3 {
			http.Error(w, "server error", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("success"))
	}))
	defer srv.Close()
	res := runChain(t, occHead+`steps:
  - id: hook
    type: webhook
    prompt: webhook
    webhook_url: "`+srv.URL+`/api"
    webhook_method: PUT
    webhook_headers: {X-Custom: value}
    webhook_body: '{"data":"test"}'
    webhook_retry: {max: 3, delay_ms: 1}
    output_var: result
output: result
`, nil)
	if res.Output != "success" || calls != 3 || method != "PUT" || header != "value" || body != `{"data":"test"}` {
		t.Fatalf("output %#v after %d calls: %s X-Custom=%q body %q (err %s)", res.Output, calls, method, header, body, res.Error)
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Debate steps":
// "runs debate with consensus decision" (the synthesis is the output) and
// "debate with multiple rounds injects previous perspectives" (round 2's
// prompts carry the other agents' answers).
func TestOCCDebateRoundsAndConsensus(t *testing.T) {
	var prompts []string
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		p := r.LastUserMessage()
		prompts = append(prompts, p)
		if strings.Contains(p, "View A") || strings.Contains(p, "View B") {
			return llmtest.Reply{Text: "Agent says stuff"}
		}
		return llmtest.Reply{Text: "Consensus reached"}
	})
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - id: debate2
    type: debate
    model: openai/m
    prompt: Topic
    debate_agents: [{role: one, prompt: "View A"}, {role: two, prompt: "View B"}]
    debate_rounds: 2
    debate_decision: consensus
    output_var: result
output: result
`, nil, WithModels(registryFor(s, nil)))
	if res.Output != "Consensus reached" || len(prompts) != 5 {
		t.Fatalf("output %#v after %d requests (err %s)", res.Output, len(prompts), res.Error)
	}
	seen := 0
	for _, p := range prompts[2:4] {
		if strings.Contains(p, "Agent says stuff") {
			seen++
		}
	}
	if seen != 2 {
		t.Errorf("round 2 prompts do not carry the others' answers: %q", prompts[2:4])
	}
}

// Reference 004 ("Cache key = hash of (step ID + resolved prompt +
// model)") and OCC 13d9853 mcp-server/src/executor.ts's cache key, which
// executor-steps.test.ts's "step cache hit" relies on: the same step,
// prompt and model hit; another step id, prompt or model misses.
func TestOCCCacheKey(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "answer to " + r.LastUserMessage()} })
	defer s.Close()
	store := cache.Open(t.TempDir())
	chain := func(id, model string) string {
		return occHead + "inputs: [q]\nsteps:\n  - {id: " + id + ", model: " + model + `, prompt: "{input.q}", cache: {enabled: true, ttl_minutes: 60}, output_var: a}` + "\noutput: a\n"
	}
	for i, tc := range []struct {
		id, model, q string
		requests     int
	}{
		{"ask", "openai/m", "one", 1},
		{"ask", "openai/m", "one", 1},
		{"other", "openai/m", "one", 2},
		{"ask", "openai/m", "two", 3},
		{"ask", "openai/n", "one", 4},
	} {
		res := runChain(t, chain(tc.id, tc.model), map[string]string{"q": tc.q}, WithModels(registryFor(s, nil)), WithCache(store, true))
		if res.Status != record.Succeeded || s.Count() != tc.requests {
			t.Fatalf("run %d (step %s, model %s, q %s): %s after %d requests, want %d", i+1, tc.id, tc.model, tc.q, res.Status, s.Count(), tc.requests)
		}
	}
}

// OCC c591dab mcp-server/tests/executor-utils.test.ts, "Output validation
// (guardrails logic)" and its legacy fields, with reference 004 ("If
// guardrails fail and retry is configured, the step re-runs
// automatically"): an answer that breaks a guardrail fails an OCC step
// without retry: after one request, and is asked again with retry:.
func TestOCCGuardrails(t *testing.T) {
	cases := []struct {
		name, fields string
		answers      []string
		ok           bool
		requests     int
	}{
		{"min_length fails without retry", "guardrails: [{type: min_length, value: 100}]", []string{"short"}, false, 1},
		{"min_length retried", "guardrails: [{type: min_length, value: 10}], retry: {max: 2, delay_ms: 1}", []string{"short", "long enough now"}, true, 2},
		{"must_contain and json_valid pass", `guardrails: [{type: must_contain, value: conclusion}, {type: json_valid}, {type: max_length, value: 1000}]`, []string{`{"result": "the conclusion"}`}, true, 1},
		{"must_not_contain fails", "guardrails: [{type: must_not_contain, value: TODO}]", []string{"Has a TODO item"}, false, 1},
		{"regex_match passes", `guardrails: [{type: regex_match, value: "^# "}]`, []string{"# Title\nBody"}, true, 1},
		{"legacy output_must_contain fails", "output_must_contain: [required, also_needed]", []string{"No match here"}, false, 1},
		{"legacy output_max_length fails", "output_max_length: 10", []string{strings.Repeat("x", 20)}, false, 1},
		{"legacy output_schema json passes", "output_schema: json", []string{`{"a":1}`}, true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var replies []llmtest.Reply
			for _, a := range tc.answers {
				replies = append(replies, llmtest.Reply{Text: a})
			}
			s := llmtest.New(replies...)
			defer s.Close()
			res := runChain(t, occHead+"steps:\n  - {id: g, model: openai/m, prompt: p, output_var: r, "+tc.fields+"}\noutput: r\n", nil, WithModels(registryFor(s, nil)))
			if (res.Status == record.Succeeded) != tc.ok || s.Count() != tc.requests {
				t.Fatalf("status %s after %d requests, want ok=%v after %d (err %s)", res.Status, s.Count(), tc.ok, tc.requests, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Loop steps": the
// items of a JSON array, of an empty array, of lines of text, of a JSON
// object (its values) and of one JSON scalar; loop_on_error: continue
// keeps a failed item's place as an error text.
func TestOCCLoopItems(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.LastUserMessage(), "FAIL") {
			return llmtest.Reply{Status: 400}
		}
		return llmtest.Reply{Text: "done " + r.LastUserMessage()}
	})
	defer s.Close()
	cases := []struct {
		name, items, onError string
		want                 int
		errorAt              int
	}{
		{"JSON array", `["apple","banana","cherry"]`, "", 3, -1},
		{"empty array", `[]`, "", 0, -1},
		{"lines of text", "line1\nline2\nline3", "", 3, -1},
		{"JSON object", `{"a":"x","b":"y"}`, "", 2, -1},
		{"JSON scalar", `"single"`, "", 1, -1},
		{"continue on error", `["a","FAIL","c"]`, "continue", 3, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := occHead + `steps:
  - {id: setup, type: transform, operation: template, template_str: ` + strconv.Quote(tc.items) + `, output_var: items}
  - {id: loop1, type: loop, items_var: items, depends_on: [setup], model: openai/m, prompt: "Process: {item}", output_var: result` +
				map[bool]string{true: ", loop_on_error: " + tc.onError, false: ""}[tc.onError != ""] + `}
output: result
`
			res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
			out, _ := json.Marshal(res.Output)
			var items []string
			if err := json.Unmarshal(out, &items); err != nil || len(items) != tc.want {
				t.Fatalf("output %#v (%d items, want %d; err %s)", res.Output, len(items), tc.want, res.Error)
			}
			if tc.errorAt >= 0 && !strings.Contains(items[tc.errorAt], "ERROR") {
				t.Errorf("item %d is %q, want an error text", tc.errorAt, items[tc.errorAt])
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor.test.ts, "executeChain with
// transform steps" and "executeChain with conditions": each chain's
// output as OCC's test expects it (the chain's input reached bare, as
// {name}; a condition false or a bare word, judged as OCC judges it).
func TestOCCExecutorTransformsAndConditions(t *testing.T) {
	const setup = "  - {id: setup, type: transform, operation: template, template_str: %s, output_var: v}\n"
	cases := []struct {
		name, setup, step, want string
	}{
		{"template reads a bare input", "", `{id: t1, type: transform, operation: template, template_str: "Hello {name}!", output_var: result}`, "Hello World!"},
		{"truncate", "", `{id: t1, type: transform, operation: truncate, truncate_limit: 10, prompt: "This is a very long text that should be truncated", output_var: result}`, "This is a \n[truncated from 49 chars]"},
		{"json_extract", `'{"name":"Alice","age":30}'`, `{id: x, type: transform, operation: json_extract, input_var: v, json_path: name, output_var: result, depends_on: [setup]}`, "Alice"},
		{"replace", `"Hello World"`, `{id: x, type: transform, operation: replace, input_var: v, regex: World, template_str: Universe, output_var: result, depends_on: [setup]}`, "Hello Universe"},
		{"filter", `"apple\nbanana\navocado\nblueberry"`, `{id: x, type: transform, operation: filter, input_var: v, regex: "^a", output_var: result, depends_on: [setup]}`, "apple\navocado"},
		{"map", `"a\nb\nc"`, `{id: x, type: transform, operation: map, input_var: v, template_str: "Item {index}: {item}", output_var: result, depends_on: [setup]}`, "Item 0: a\nItem 1: b\nItem 2: c"},
		{"join", `'["a","b","c"]'`, `{id: x, type: transform, operation: join, input_var: v, template_str: ", ", output_var: result, depends_on: [setup]}`, "a, b, c"},
		{"from_json object", `'{"name":"Alice","age":"30"}'`, `{id: x, type: transform, operation: from_json, input_var: v, output_var: result, depends_on: [setup]}`, "name: Alice\nage: 30"},
		{"condition false skips", "", `{id: s1, type: transform, operation: template, template_str: fallback, output_var: result, condition: 'false'}`, ""},
		{"condition bare word runs", "", `{id: s1, type: transform, operation: template, template_str: executed, output_var: result, condition: something_truthy}`, "executed"},
		{"condition reads a variable", `enabled`, `{id: c, type: transform, operation: template, template_str: "ran!", output_var: result, condition: '{v} == "enabled"', depends_on: [setup]}`, "ran!"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := occHead + "inputs: [{name: name, optional: true}]\nsteps:\n"
			if tc.setup != "" {
				src += fmt.Sprintf(setup, tc.setup)
			}
			src += "  - " + tc.step + "\noutput: result\n"
			res := runChain(t, src, map[string]string{"name": "World"})
			out, ok := res.Output.(string)
			if !ok {
				b, _ := json.Marshal(res.Output)
				out = string(b)
			}
			if out != tc.want {
				t.Fatalf("output %q, want %q (status %s, err %s)", out, tc.want, res.Status, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "runs debate with
// last_round decision (no synthesis)": agents without a role are named
// Agent 1, Agent 2 in the output.
func TestOCCDebateLastRoundNamesAgents(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "Agent final view"})
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - {id: debate3, type: debate, model: openai/m, prompt: Topic, debate_agents: [{prompt: A}, {prompt: B}], debate_rounds: 1, debate_decision: last_round, output_var: result}
output: result
`, nil, WithModels(registryFor(s, nil)))
	out, _ := res.Output.(string)
	if !strings.Contains(out, "Agent 1") || !strings.Contains(out, "Agent 2") || s.Count() != 2 {
		t.Fatalf("output %q after %d requests (err %s)", out, s.Count(), res.Error)
	}
}
