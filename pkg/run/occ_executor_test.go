package run

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// The cases below port what OCC's executor tests (lacausecrypto/OCC,
// mcp-server/tests) pin about a chain's run, on a file read as OCC's. OCC
// mocks its model runner; here every model step answers from an httptest
// server. Each case names its source: commit, file, describe and it.

// answering is a model server that gives yes to a prompt holding one of
// the |-separated words, else no.
func answering(words string, yes, no llmtest.Reply) *llmtest.Server {
	return llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		for _, w := range strings.Split(words, "|") {
			if strings.Contains(r.LastUserMessage(), w) {
				return yes
			}
		}
		return no
	})
}

// outputText is a run's output as text: a string as is, data as JSON.
func outputText(res *record.Result) string {
	if s, ok := res.Output.(string); ok {
		return s
	}
	b, _ := json.Marshal(res.Output)
	return string(b)
}

// OCC b17e1ab mcp-server/tests/executor.test.ts ("executeChain with
// inputs", "executeChain with merge steps", "executeChain with parallel
// steps", transform: to_json, from_json (array), regex_match),
// executor-steps.test.ts ("Transform edge cases") and 59941a8
// executor-coverage-boost.test.ts ("Transform merge operation",
// "Execution output"): each chain's output as OCC's test expects it.
func TestOCCExecutorOutputs(t *testing.T) {
	set := func(id, text, out string) string {
		return "  - {id: " + id + ", type: transform, operation: template, template_str: " + text + ", output_var: " + out + "}\n"
	}
	cases := []struct {
		name, steps, want string
		inputs            map[string]string
	}{
		{"input as {input.key} and {key}", set("s1", `"Topic: {input.topic}, Also: {topic}"`, "result"), "Topic: AI, Also: AI", map[string]string{"topic": "AI"}},
		{"optional input missing", set("s1", "ok", "result"), "ok", nil},
		{"independent steps then one that reads both", set("a", "A", "out_a") + set("b", "B", "out_b") +
			"  - {id: c, type: transform, operation: template, template_str: '{out_a}+{out_b}', output_var: result, depends_on: [a, b]}\n", "A+B", nil},
		{"merge concatenate", set("a", `"Part A"`, "part_a") + set("b", `"Part B"`, "part_b") +
			"  - {id: merged, type: merge, inputs: [part_a, part_b], strategy: concatenate, output_var: result, depends_on: [a, b]}\n", "Part A\n\n---\n\nPart B", nil},
		{"merge json_array", set("a", "Alpha", "v1") + set("b", "Beta", "v2") +
			"  - {id: merged, type: merge, inputs: [v1, v2], strategy: json_array, output_var: result, depends_on: [a, b]}\n", `["Alpha","Beta"]`, nil},
		{"merge default is concatenate", set("a", "X", "x") + set("b", "Y", "y") +
			"  - {id: merged, type: merge, inputs: [x, y], output_var: result, depends_on: [a, b]}\n", "X\n\n---\n\nY", nil},
		{"transform merge operation", set("a", `"Part A"`, "part_a") + set("b", `"Part B"`, "part_b") +
			"  - {id: m, type: transform, operation: merge, inputs: [part_a, part_b], output_var: result, depends_on: [a, b]}\n", "Part A\n\n---\n\nPart B", nil},
		{"to_json", set("setup", `"line1\nline2\nline3"`, "text") +
			"  - {id: j, type: transform, operation: to_json, input_var: text, output_var: result, depends_on: [setup]}\n", `["line1","line2","line3"]`, nil},
		{"from_json array", set("setup", `'["a","b","c"]'`, "arr") +
			"  - {id: j, type: transform, operation: from_json, input_var: arr, output_var: result, depends_on: [setup]}\n", "a\nb\nc", nil},
		{"regex_match", set("setup", `"Error 404: Not Found. Error 500: Server Error"`, "text") +
			`  - {id: x, type: transform, operation: regex_match, input_var: text, regex: '\d{3}', output_var: result, depends_on: [setup]}` + "\n", "404\n500", nil},
		{"json_extract wildcard", set("setup", `'{"items":[{"name":"a"},{"name":"b"}]}'`, "data") +
			"  - {id: x, type: transform, operation: json_extract, input_var: data, json_path: items.*.name, output_var: result, depends_on: [setup]}\n", `["a","b"]`, nil},
		// one reader with http_fetch's json_path (interp.SelectDotted): brackets, nested *
		{"json_extract brackets", set("setup", `'{"items":[{"name":"a"},{"name":"b"}]}'`, "data") +
			"  - {id: x, type: transform, operation: json_extract, input_var: data, json_path: 'items[1].name', output_var: result, depends_on: [setup]}\n", "b", nil},
		{"json_extract nested wildcards", set("setup", `'{"g":[{"t":["x","y"]},{"t":["z"]}]}'`, "data") +
			"  - {id: x, type: transform, operation: json_extract, input_var: data, json_path: g.*.t.*, output_var: result, depends_on: [setup]}\n", `[["x","y"],["z"]]`, nil},
		{"from_json scalar", set("setup", `"42"`, "val") +
			"  - {id: x, type: transform, operation: from_json, input_var: val, output_var: result, depends_on: [setup]}\n", "42", nil},
		{"from_json of text is the text", set("setup", `"not json"`, "val") +
			"  - {id: x, type: transform, operation: from_json, input_var: val, output_var: result, depends_on: [setup]}\n", "not json", nil},
		{"join of text that is no list is the text", set("setup", `"not an array"`, "val") +
			"  - {id: x, type: transform, operation: join, input_var: val, template_str: ',', output_var: result, depends_on: [setup]}\n", "not an array", nil},
		{"replace with an empty pattern changes nothing", set("setup", "hello", "text") +
			"  - {id: x, type: transform, operation: replace, input_var: text, regex: '', template_str: x, output_var: result, depends_on: [setup]}\n", "hello", nil},
		{"no operation passes the input through", set("setup", "passthrough", "text") +
			"  - {id: noop, type: transform, input_var: text, output_var: result, depends_on: [setup]}\n", "passthrough", nil},
		{"an empty template is the output", set("s1", "value", "other_var") +
			"  - {id: s2, type: transform, operation: template, template_str: '', output_var: result, depends_on: [s1]}\n", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := occHead + "inputs: [{name: topic, optional: true}]\nsteps:\n" + tc.steps + "output: result\n"
			res := runChain(t, src, tc.inputs)
			if res.Status != record.Succeeded || outputText(res) != tc.want {
				t.Fatalf("status %s, output %q, want %q (err %s)", res.Status, outputText(res), tc.want, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor.test.ts, "executeChain with
// inputs": "throws for missing required input" — the run is refused
// before any step, naming the input.
func TestOCCMissingRequiredInput(t *testing.T) {
	_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, occHead+`inputs: [{name: required_field}]
steps:
  - {id: s1, type: transform, operation: template, template_str: test, output_var: result}
output: result
`)})
	if err == nil || !strings.Contains(err.Error(), "required_field") {
		t.Fatalf("err %v, want one naming the missing input", err)
	}
}

// OCC b17e1ab mcp-server/tests/executor.test.ts, "executeChain with
// early_exit_if": s1's early_exit_if holds, so s2 never runs and the
// chain's output (s2's variable) is "". OCC skips s1 too; reference 004
// ("evaluates to true after this step completes") wins: s1 runs.
func TestOCCEarlyExitSkipsLaterWaves(t *testing.T) {
	res := runChain(t, occHead+`steps:
  - {id: s1, type: transform, operation: template, template_str: done, output_var: status, early_exit_if: always_true}
  - {id: s2, type: transform, operation: template, template_str: should not run, output_var: result, depends_on: [s1]}
output: result
`, nil)
	if res.Status != record.Succeeded || outputText(res) != "" || step(t, res, "s1").Status != record.StepSucceeded || step(t, res, "s2").Status != record.StepSkipped {
		t.Fatalf("status %s output %q s1 %s s2 %s", res.Status, outputText(res), step(t, res, "s1").Status, step(t, res, "s2").Status)
	}
}

// OCC b17e1ab mcp-server/tests/executor.test.ts, "executeChain with
// merge steps": llm_summarize and pick_best ask the model once and its
// answer is the output.
func TestOCCMergeByModel(t *testing.T) {
	for _, strategy := range []string{"llm_summarize", "pick_best"} {
		t.Run(strategy, func(t *testing.T) {
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Text: "merged: " + r.LastUserMessage()}
			})
			defer s.Close()
			res := runChain(t, occHead+`steps:
  - {id: a, type: transform, operation: template, template_str: "Section A content", output_var: sec_a}
  - {id: b, type: transform, operation: template, template_str: "Section B content", output_var: sec_b}
  - {id: merged, type: merge, model: openai/m, inputs: [sec_a, sec_b], strategy: `+strategy+`, output_var: result, depends_on: [a, b]}
output: result
`, nil, WithModels(registryFor(s, nil)))
			out := outputText(res)
			if res.Status != record.Succeeded || s.Count() != 1 || !strings.Contains(out, "Section A content") || !strings.Contains(out, "Section B content") {
				t.Fatalf("status %s after %d requests, output %q (err %s)", res.Status, s.Count(), out, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor.test.ts, "executeChain with
// router step" ("router step classifies and selects a route"), and 59941a8
// executor-coverage-boost.test.ts, "Router edge cases": an answer that is
// a route, one that holds a route's name ("no exact match"), one that
// names none and an empty one (both the default_route), and an empty
// answer without default_route (the step fails). The steps of the route
// not chosen are skipped.
func TestOCCRouterChoosesTheRoute(t *testing.T) {
	cases := []struct {
		name, answer, deflt string
		ok                  bool
		route, ran, skipped string
	}{
		{"exact", "high", "low", true, "high", "fast_track", "standard"},
		{"name inside the answer", "I think this is a high priority issue", "", true, "high", "fast_track", "standard"},
		{"no route named, default", "unknown_route_xyz", "low", true, "low", "standard", "fast_track"},
		{"empty answer, default", "", "low", true, "low", "standard", "fast_track"},
		{"empty answer, no default", "", "", false, "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.New(llmtest.Reply{Text: tc.answer})
			defer s.Close()
			deflt := ""
			if tc.deflt != "" {
				deflt = ", default_route: " + tc.deflt
			}
			res := runChain(t, occHead+`inputs: [priority]
steps:
  - {id: router, type: router, model: openai/m, prompt: "Classify: {input.priority}", output_var: route, routes: {high: [fast_track], low: [standard]}`+deflt+`}
  - {id: fast_track, type: transform, operation: template, template_str: "fast!", output_var: result, depends_on: [router]}
  - {id: standard, type: transform, operation: template, template_str: normal, output_var: alt, depends_on: [router]}
output: route
`, map[string]string{"priority": "urgent"}, WithModels(registryFor(s, nil)))
			if !tc.ok {
				if res.Status != record.Failed || step(t, res, "router").Status != record.StepFailed {
					t.Fatalf("status %s, router %s: an empty answer without default_route must fail", res.Status, step(t, res, "router").Status)
				}
				return
			}
			if res.Status != record.Succeeded || outputText(res) != tc.route || step(t, res, tc.ran).Status != record.StepSucceeded || step(t, res, tc.skipped).Status != record.StepSkipped {
				t.Fatalf("status %s route %q, %s %s, %s %s (err %s)", res.Status, outputText(res), tc.ran, step(t, res, tc.ran).Status, tc.skipped, step(t, res, tc.skipped).Status, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor.test.ts, "evaluator step runs
// and returns PASS/FAIL", and 59941a8 executor-coverage-boost.test.ts,
// "Evaluator with scoring": a score of 9 against 7 passes, 3 fails, and
// on_fail: retry runs the target again until the second evaluation
// passes.
func TestOCCEvaluatorVerdicts(t *testing.T) {
	cases := []struct {
		name, fields string
		answers      []string
		want         string
		evaluations  int
	}{
		{"PASS with a comment", "on_fail: skip", []string{"PASS - Looks good"}, "PASS", 1},
		{"score above threshold", "eval_scoring: true, eval_threshold: 7", []string{"9\nGreat quality output"}, "PASS", 1},
		{"score below threshold", "eval_scoring: true, eval_threshold: 7", []string{"3\nPoor quality"}, "FAIL", 1},
		{"retry until it passes", "on_fail: retry, retry_target: writer, max_retries: 2", []string{"FAIL - needs improvement", "PASS - looks good now"}, "PASS", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var evals atomic.Int32
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				if strings.Contains(r.LastUserMessage(), "Quality") {
					n := int(evals.Add(1))
					return llmtest.Reply{Text: tc.answers[min(n, len(tc.answers))-1]}
				}
				return llmtest.Reply{Text: "Draft content"}
			})
			defer s.Close()
			res := runChain(t, occHead+`steps:
  - {id: writer, model: openai/m, prompt: Write, output_var: draft}
  - {id: eval, type: evaluator, model: openai/m, input_var: draft, criteria: Quality, `+tc.fields+`, output_var: result, depends_on: [writer]}
output: result
`, nil, WithModels(registryFor(s, nil)))
			if res.Status != record.Succeeded || outputText(res) != tc.want || int(evals.Load()) != tc.evaluations {
				t.Fatalf("status %s output %q after %d evaluations, want %q after %d (err %s)", res.Status, outputText(res), evals.Load(), tc.want, tc.evaluations, res.Error)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Gate
// auto-approve", and 59941a8 executor-coverage-boost.test.ts, "Gate
// suspend": a gate whose gate_auto_approve_if holds gives "approved" at
// once; one without waits (OCC's "suspended:gate1", chainrun's paused
// run), and the step after it has not run.
func TestOCCGateAutoApproveOrWait(t *testing.T) {
	res := runChain(t, occHead+`steps:
  - {id: setup, type: transform, operation: template, template_str: good, output_var: quality}
  - {id: gate1, type: gate, prompt: "Approve?", gate_auto_approve_if: '{quality} == "good"', output_var: approval, depends_on: [setup]}
  - {id: final, type: transform, operation: template, template_str: "approved: {approval}", output_var: result, depends_on: [gate1]}
output: result
`, nil)
	if res.Status != record.Succeeded || outputText(res) != "approved: approved" {
		t.Fatalf("status %s output %q (err %s)", res.Status, outputText(res), res.Error)
	}
	res = runChain(t, occHead+`steps:
  - {id: gate1, type: gate, prompt: "Approve?", output_var: approval}
  - {id: final, type: transform, operation: template, template_str: done, output_var: result, depends_on: [gate1]}
output: result
`, nil)
	if res.Status != record.Paused || step(t, res, "final").Status == record.StepSucceeded {
		t.Fatalf("status %s, final %s: a gate without approval must wait", res.Status, step(t, res, "final").Status)
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Loop steps",
// "loop_on_error: abort (default) throws on failure", and 59941a8
// executor-coverage-boost.test.ts, "Loop with loop_until" (max_parallel:
// 1 and loop_until "true": one item) and "Loop batching" (max_parallel:
// 2: never more than two items at once, four results).
func TestOCCLoopAbortUntilAndParallel(t *testing.T) {
	var calls, running, most atomic.Int32
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		n := calls.Add(1)
		cur := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); cur > m && !most.CompareAndSwap(m, cur); m = most.Load() {
		}
		if strings.Contains(r.LastUserMessage(), "boom") {
			return llmtest.Reply{Status: 400, Text: "Fatal loop error"}
		}
		return llmtest.Reply{Text: "ok " + string(rune('0'+n))}
	})
	defer s.Close()
	loop := func(items, fields string) *record.Result {
		return runChain(t, occHead+`steps:
  - {id: setup, type: transform, operation: template, template_str: '`+items+`', output_var: items}
  - {id: loop1, type: loop, items_var: items, model: openai/m, prompt: "Process: {item}", output_var: result, depends_on: [setup]`+fields+`}
output: result
`, nil, WithModels(registryFor(s, nil)))
	}
	if res := loop(`["a","boom","c"]`, ""); res.Status != record.Failed || !strings.Contains(step(t, res, "loop1").Error, "boom") && !strings.Contains(step(t, res, "loop1").Error, "item") {
		t.Fatalf("abort: status %s, loop error %q", res.Status, step(t, res, "loop1").Error)
	}
	res := loop(`["a","b","c","d","e"]`, ", max_parallel: 1, loop_until: 'true'")
	var items []string
	_ = json.Unmarshal([]byte(outputText(res)), &items)
	if res.Status != record.Succeeded || len(items) != 1 {
		t.Fatalf("loop_until: status %s output %q (err %s)", res.Status, outputText(res), res.Error)
	}
	most.Store(0)
	res = loop(`["a","b","c","d"]`, ", max_parallel: 2")
	items = nil
	_ = json.Unmarshal([]byte(outputText(res)), &items)
	if res.Status != record.Succeeded || len(items) != 4 || most.Load() > 2 {
		t.Fatalf("max_parallel 2: status %s, %d items, %d at once", res.Status, len(items), most.Load())
	}
}

// OCC 59941a8 mcp-server/tests/executor-coverage-boost.test.ts,
// "Execution error handling": a failed step fails the run with its
// error and the step after it is skipped; in a wave of two, one failure
// fails the run.
func TestOCCFailureSkipsTheRest(t *testing.T) {
	s := answering("Task B|Do something", llmtest.Reply{Status: 400, Text: "Step failed catastrophically"}, llmtest.Reply{Text: "ok"})
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - {id: s1, model: openai/m, prompt: Do something, output_var: out1}
  - {id: s2, type: transform, operation: template, template_str: "{out1}", output_var: result, depends_on: [s1]}
output: result
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Failed || step(t, res, "s1").Status != record.StepFailed || step(t, res, "s2").Status != record.StepSkipped {
		t.Fatalf("status %s s1 %s s2 %s", res.Status, step(t, res, "s1").Status, step(t, res, "s2").Status)
	}
	res = runChain(t, occHead+`steps:
  - {id: a, model: openai/m, prompt: Task A, output_var: out_a}
  - {id: b, model: openai/m, prompt: Task B, output_var: out_b}
  - {id: c, type: transform, operation: template, template_str: done, output_var: result, depends_on: [a, b]}
output: result
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Failed || step(t, res, "b").Status != record.StepFailed || step(t, res, "c").Status == record.StepSucceeded {
		t.Fatalf("status %s b %s c %s", res.Status, step(t, res, "b").Status, step(t, res, "c").Status)
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Debate steps",
// "runs multi-agent debate with voting decision": the synthesis is the
// output.
func TestOCCDebateVoting(t *testing.T) {
	s := answering("Argue for", llmtest.Reply{Text: "Agent perspective on the topic"}, llmtest.Reply{Text: "Synthesized consensus"})
	defer s.Close()
	res := runChain(t, occHead+`steps:
  - {id: debate1, type: debate, model: openai/m, prompt: Debate topic, debate_agents: [{prompt: Argue for A}, {prompt: Argue for B}], debate_rounds: 1, debate_decision: voting, output_var: result}
output: result
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || outputText(res) != "Synthesized consensus" || s.Count() != 3 {
		t.Fatalf("status %s output %q after %d requests (err %s)", res.Status, outputText(res), s.Count(), res.Error)
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Webhook steps":
// a POST by default whose answer is the output; GET sends no body; the
// URL's {input.endpoint} is filled in; webhook_retry: 1 after two 500s
// fails ("Webhook failed"); webhook_success_status: [200, 202, 204]
// takes 202.
func TestOCCWebhookSteps(t *testing.T) {
	type seen struct{ method, path, body string }
	var got []seen
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := new(strings.Builder)
		_, _ = io.Copy(b, r.Body)
		got = append(got, seen{r.Method, r.URL.Path, b.String()})
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	hook := func(fields string) *record.Result {
		got = nil
		return runChain(t, occHead+`inputs: [{name: endpoint, default: hook}]
steps:
  - {id: webhook1, type: webhook, prompt: webhook step, output_var: result, `+fields+`}
output: result
`, nil)
	}
	res := hook(`webhook_url: "` + srv.URL + `/{input.endpoint}"`)
	if res.Status != record.Succeeded || outputText(res) != `{"ok":true}` || len(got) != 1 || got[0].method != "POST" || got[0].path != "/hook" {
		t.Fatalf("default POST: status %s output %q requests %+v (err %s)", res.Status, outputText(res), got, res.Error)
	}
	res = hook(`webhook_url: "` + srv.URL + `/get", webhook_method: GET`)
	if res.Status != record.Succeeded || len(got) != 1 || got[0].method != "GET" || got[0].body != "" {
		t.Fatalf("GET: status %s requests %+v", res.Status, got)
	}
	status = http.StatusInternalServerError
	res = hook(`webhook_url: "` + srv.URL + `/fail", webhook_retry: {max: 2, delay_ms: 1}`)
	if res.Status != record.Failed || len(got) != 2 {
		t.Fatalf("retries exhausted: status %s after %d requests", res.Status, len(got))
	}
	status = http.StatusAccepted
	res = hook(`webhook_url: "` + srv.URL + `/custom", webhook_success_status: [200, 202, 204]`)
	if res.Status != record.Succeeded || outputText(res) != `{"ok":true}` {
		t.Fatalf("202 listed as success: status %s (err %s)", res.Status, res.Error)
	}
	status = http.StatusCreated
	res = hook(`webhook_url: "` + srv.URL + `/custom", webhook_success_status: [200]`)
	if res.Status != record.Failed || !strings.Contains(step(t, res, "webhook1").Error, "201") {
		t.Fatalf("201 not listed: status %s err %q", res.Status, step(t, res, "webhook1").Error)
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts ("throws when
// webhook_url is missing", "throws when no debate agents defined",
// Subchain "throws when subchain field is missing") and 59941a8
// executor-coverage-boost.test.ts ("throws when merge has no inputs"):
// OCC fails these when the step runs; chainrun refuses the file when it
// loads, naming the step.
func TestOCCStepsMissingWhatTheyNeed(t *testing.T) {
	for _, tc := range []struct{ name, step string }{
		{"webhook without url", "{id: webhook4, type: webhook, prompt: webhook, output_var: result}"},
		{"debate without agents", "{id: debate4, type: debate, prompt: Topic, debate_agents: [], output_var: result}"},
		{"subchain without chain", "{id: sub1, type: subchain, prompt: subchain, output_var: result}"},
		{"merge with empty inputs", "{id: m1, type: merge, inputs: [], output_var: result}"},
		{"merge without inputs", "{id: m1, type: merge, output_var: result}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := chain.Parse("occ.yaml", []byte(occHead+"steps:\n  - "+tc.step+"\noutput: result\n"), chain.Options{})
			id := strings.TrimPrefix(strings.SplitN(tc.step, ",", 2)[0], "{id: ")
			if err == nil || !strings.Contains(err.Error(), id) {
				t.Fatalf("err %v, want a load error naming step %s", err, id)
			}
		})
	}
}

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Transform edge
// cases" ("json_extract with invalid JSON logs warning": the output holds
// "JSON parse error"; "replace with empty pattern returns input
// unchanged"; "default operation returns input as-is") and 13d9853
// mcp-server/src/executor.ts's transform (an operation it does not know
// passes the input through; an empty regex matches everywhere): an OCC
// file runs them so, with a warning; chainrun's own format refuses them
// (TestOCCTransformReadingsOwnFormat in pkg/chain) or fails the step.
func TestOCCTransformEdgeCases(t *testing.T) {
	const setup = "  - {id: setup, type: transform, operation: template, template_str: %q, output_var: v}\n"
	cases := []struct {
		name, text, step, want string
		warned                 bool
	}{
		{"json_extract of text that is no JSON", "not json", "{id: x, type: transform, operation: json_extract, input_var: v, json_path: key, output_var: result, depends_on: [setup]}", "[JSON parse error: ", true},
		{"json_extract of other text", "{broken", "{id: x, type: transform, operation: json_extract, input_var: v, json_path: a.b, output_var: result, depends_on: [setup]}", "[JSON parse error: ", true},
		{"replace with an empty regex", "hello", "{id: x, type: transform, operation: replace, input_var: v, regex: '', template_str: x, output_var: result, depends_on: [setup]}", "hello", false},
		{"filter with an empty regex keeps every line", "a\nb", "{id: x, type: transform, operation: filter, input_var: v, regex: '', output_var: result, depends_on: [setup]}", "a\nb", false},
		{"regex_match with an empty regex finds empty matches", "ab", "{id: x, type: transform, operation: regex_match, input_var: v, regex: '', output_var: result, depends_on: [setup]}", "\n\n", false},
		{"no operation", "passthrough", "{id: x, type: transform, input_var: v, output_var: result, depends_on: [setup]}", "passthrough", false},
		{"an operation OCC lacks", "Keep Me", "{id: x, type: transform, operation: uppercase, input_var: v, output_var: result, depends_on: [setup]}", "Keep Me", false},
		{"no operation, the prompt", "", "{id: x, type: transform, prompt: 'from the prompt', output_var: result}", "from the prompt", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := occHead + "steps:\n"
			if tc.text != "" {
				src += strings.Replace(setup, "%q", strconvQuote(tc.text), 1)
			}
			res := runChain(t, src+"  - "+tc.step+"\noutput: result\n", nil)
			out := outputText(res)
			if res.Status != record.Succeeded || !strings.HasPrefix(out, tc.want) || (!strings.HasSuffix(tc.want, ": ") && out != tc.want) {
				t.Fatalf("status %s output %q, want %q (err %s)", res.Status, out, tc.want, res.Error)
			}
			if tc.warned && !strings.Contains(strings.Join(res.Warnings, "\n"), "json_extract") {
				t.Errorf("no warning says the output is OCC's error text: %q", res.Warnings)
			}
		})
	}
	// chainrun's own format: json_extract of text that is no JSON fails
	res := runChain(t, "name: t\nsteps:\n  - {id: setup, type: transform, operation: template, template_str: 'not json', output_var: v}\n"+
		"  - {id: x, type: transform, operation: json_extract, input_var: v, json_path: key, output_var: result, depends_on: [setup]}\noutput: result\n", nil)
	if res.Status != record.Failed || !strings.Contains(step(t, res, "x").Error, "not JSON") {
		t.Fatalf("own format: status %s, x's error %q", res.Status, step(t, res, "x").Error)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// OCC b17e1ab mcp-server/tests/executor-steps.test.ts, "Webhook steps"
// ("retries on failure and eventually succeeds": webhook_retry: 3, two
// 500s, then the answer; "throws after all retries exhausted":
// webhook_retry: 1, two attempts), with 13d9853 executor.ts's reading of
// webhook_retry (the retries after the first attempt) and
// webhook_timeout_ms (each attempt's limit), and 48a4d08 webhook.test.ts
// ("accepts webhook with all optional fields").
func TestOCCWebhookRetryAndTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for OCC's one- and two-second retry delays")
	}
	var calls atomic.Int32
	failFirst := int32(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if r.URL.Path == "/slow" {
			time.Sleep(2 * time.Second)
		}
		if n <= failFirst {
			http.Error(w, "server error", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("success"))
	}))
	defer srv.Close()
	hook := func(fields string) *record.Result {
		calls.Store(0)
		return runChain(t, occHead+"steps:\n  - {id: hook, type: webhook, prompt: webhook, output_var: result, webhook_url: '"+srv.URL+"/x', "+fields+"}\noutput: result\n", nil)
	}
	if res := hook("webhook_retry: 3"); res.Status != record.Succeeded || outputText(res) != "success" || calls.Load() != 3 {
		t.Fatalf("webhook_retry 3: status %s output %q after %d calls (err %s)", res.Status, outputText(res), calls.Load(), res.Error)
	}
	if res := hook("webhook_retry: 1"); res.Status != record.Failed || calls.Load() != 2 {
		t.Fatalf("webhook_retry 1: status %s after %d calls, want failed after 2", res.Status, calls.Load())
	}
	failFirst = 0
	calls.Store(0)
	res := runChain(t, occHead+"steps:\n  - {id: hook, type: webhook, prompt: webhook, output_var: result, webhook_url: '"+srv.URL+"/slow', webhook_timeout_ms: 200}\noutput: result\n", nil)
	if res.Status != record.Failed || !strings.Contains(step(t, res, "hook").Error, "timed out") {
		t.Fatalf("webhook_timeout_ms 200 against a 2 s answer: status %s, error %q", res.Status, step(t, res, "hook").Error)
	}
}
