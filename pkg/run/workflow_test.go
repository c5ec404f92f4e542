package run

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// pipeline copies reference 000's deploy_pipeline beside a bin/ of fake
// lint-check, test-runner and build-artifact commands that log each call
// to calls.log. FAIL=build makes the build fail.
func pipeline(t *testing.T) (*chain.Chain, string) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("../chain/testdata/deploy_pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{
		"lint-check":     `echo "lint-check $*" >> calls.log; echo '{"lintPassed": true}'`,
		"test-runner":    `echo "test-runner $*" >> calls.log; echo '{"testsPassed": true, "testCount": 142, "coverage": 87.3}'`,
		"build-artifact": `echo "build-artifact $*" >> calls.log; if [ -f fail-build ]; then echo "compiler error" >&2; exit 1; fi; echo "{\"artifactId\": \"$1-v1.4.2\", \"imageTag\": \"registry.example.com/$1:v1.4.2\"}"`,
	}
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, "bin", name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "deploy.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := chain.LoadFile(file, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Chain, dir
}

func calls(t *testing.T, dir string) []string {
	data, _ := os.ReadFile(filepath.Join(dir, "calls.log"))
	return strings.Fields(strings.ReplaceAll(string(data), "\n", " | "))
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPipelinePausesAtTheDecisionWithReference000Response(t *testing.T) {
	c, dir := pipeline(t)
	j := &memJournal{}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"service": "payment-api"}, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || res.State != "ready_to_deploy" {
		t.Fatalf("status %s state %s error %s", res.Status, res.State, res.Error)
	}
	wantChain := `[{"fromState":"lint","transition":"run_lint","toState":"test"},{"fromState":"test","transition":"run_tests","toState":"build"},{"fromState":"build","transition":"build_artifact","toState":"ready_to_deploy"}]`
	if got := asJSON(t, res.Chain); got != wantChain {
		t.Errorf("chain\n got %s\nwant %s", got, wantChain)
	}
	wantContext := `{"artifactId":"payment-api-v1.4.2","coverage":87.3,"imageTag":"registry.example.com/payment-api:v1.4.2","lintPassed":true,"testCount":142,"testsPassed":true}`
	if got := asJSON(t, res.Context); got != wantContext {
		t.Errorf("context\n got %s\nwant %s", got, wantContext)
	}
	if res.Guidance == nil || res.Guidance.Goal != "Confirm deployment" || res.Guidance.Instructions != "All checks passed. Review results before deploying." {
		t.Errorf("guidance %+v", res.Guidance)
	}
	if got := asJSON(t, res.Links); got != `[{"transition":"deploy","title":"Deploy","actor":"agent"},{"transition":"abort","title":"Abort","actor":"agent"}]` {
		t.Errorf("links %s", got)
	}
	if got := strings.Join(calls(t, dir), " "); got != "lint-check payment-api | test-runner payment-api | build-artifact payment-api staging |" {
		t.Errorf("calls %q", got)
	}
	if len(j.transitions) != 3 || j.transitions[2].Context["artifactId"] != "payment-api-v1.4.2" {
		t.Fatalf("journal %+v", j.transitions)
	}

	// the caller decides: deploy
	res, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"service": "payment-api"}, History: j.transitions, Take: "deploy", Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.State != "deployed" {
		t.Fatalf("after take: %s %s %s", res.Status, res.State, res.Error)
	}
	if got := asJSON(t, res.Chain); got != `[{"fromState":"ready_to_deploy","transition":"deploy","toState":"deployed","decidedBy":"caller"}]` {
		t.Errorf("chain %s", got)
	}
	if res.Context["testCount"] != 142 || len(calls(t, dir)) != 10 {
		t.Errorf("context %v, calls %v", res.Context, calls(t, dir))
	}
}

func TestPipelineFailureKeepsProgressAndOffersRetry(t *testing.T) {
	c, dir := pipeline(t)
	os.WriteFile(filepath.Join(dir, "fail-build"), nil, 0o644)
	j := &memJournal{}
	in := map[string]string{"service": "payment-api"}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: in, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Failed || res.State != "build" {
		t.Fatalf("status %s state %s", res.Status, res.State)
	}
	if got := asJSON(t, res.Chain); got != `[{"fromState":"lint","transition":"run_lint","toState":"test"},{"fromState":"test","transition":"run_tests","toState":"build"}]` {
		t.Errorf("chain %s", got)
	}
	if !strings.Contains(res.Error, "build-artifact exited with code 1") {
		t.Errorf("error %q", res.Error)
	}
	if got := asJSON(t, res.Links); got != `[{"transition":"build_artifact","title":"Retry: Build artifact"}]` {
		t.Errorf("links %s", got)
	}
	if res.Context["testsPassed"] != true {
		t.Errorf("context lost: %v", res.Context)
	}

	// fix, resume: lint and test are not run again
	os.Remove(filepath.Join(dir, "fail-build"))
	res, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: in, History: j.transitions, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || res.State != "ready_to_deploy" {
		t.Fatalf("resumed: %s %s %s", res.Status, res.State, res.Error)
	}
	if got := strings.Join(calls(t, dir), " "); strings.Count(got, "lint-check") != 1 || strings.Count(got, "test-runner") != 1 || strings.Count(got, "build-artifact") != 2 {
		t.Errorf("calls %q", got)
	}
	if got := asJSON(t, res.Chain); got != `[{"fromState":"build","transition":"build_artifact","toState":"ready_to_deploy"}]` {
		t.Errorf("resumed chain %s", got)
	}
}

func TestWorkflowTakeMustBeALink(t *testing.T) {
	c, dir := pipeline(t)
	j := &memJournal{}
	in := map[string]string{"service": "svc"}
	if _, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: in, Journal: j}); err != nil {
		t.Fatal(err)
	}
	_, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: in, History: j.transitions, Take: "ship"})
	var te *response.TakeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "offers deploy, abort") {
		t.Fatalf("err %v", err)
	}
}

func TestWorkflowInputsFollowTheSchema(t *testing.T) {
	c, dir := pipeline(t)
	cases := []struct {
		in   map[string]string
		want string
	}{
		{map[string]string{}, `missing required input "service"`},
		{map[string]string{"service": "x", "region": "eu"}, `unknown input "region"`},
		{map[string]string{"service": "x", "environment": "prod"}, "enum"},
	}
	for _, tc := range cases {
		_, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: tc.in})
		var ie *given.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v", tc.in, err)
		}
	}
	if len(calls(t, dir)) != 0 {
		t.Error("something ran")
	}
}

func wf(states string) string {
	return "version: '1'\nworkflows:\n  w:\n    initialState: a\n" + states
}

func TestWorkflowTypedInputsAndConditions(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      properties:
        count: {type: integer, default: 2}
        fast: {type: boolean}
    states:
      a:
        transitions:
          many: {target: big, actor: deterministic, condition: 'input.count > 3'}
          few: {target: small, actor: deterministic, condition: 'input.count <= 3'}
      big: {terminal: true}
      small: {terminal: true}
`)
	for in, want := range map[string]string{"": "small", "7": "big", "3": "small"} {
		inputs := map[string]string{}
		if in != "" {
			inputs["count"] = in
		}
		res := runChain(t, src, inputs)
		if res.Status != record.Succeeded || res.State != want {
			t.Errorf("count %q: %s %s %s", in, res.Status, res.State, res.Error)
		}
	}
	_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: map[string]string{"count": "many"}})
	if err == nil || !strings.Contains(err.Error(), `input "count": "many" is not an integer`) {
		t.Errorf("err %v", err)
	}
}

func TestWorkflowViability(t *testing.T) {
	none := wf(`    states:
      a:
        transitions:
          x: {target: b, actor: deterministic, condition: 'false'}
      b: {terminal: true}
`)
	res := runChain(t, none, nil)
	if res.Status != record.Failed || !strings.Contains(res.Error, "no deterministic transition is viable") {
		t.Errorf("none: %s %s", res.Status, res.Error)
	}
	several := wf(`    states:
      a:
        transitions:
          x: {target: b, actor: deterministic}
          y: {target: b, actor: deterministic}
      b: {terminal: true}
`)
	res = runChain(t, several, nil)
	if res.Status != record.Failed || !strings.Contains(res.Error, "2 deterministic transitions are viable (x, y)") {
		t.Errorf("several: %s %s", res.Status, res.Error)
	}
}

func TestWorkflowDepthLimitOnADeterministicCycle(t *testing.T) {
	src := wf(`    maxChainDepth: 5
    states:
      a:
        transitions:
          to_b: {target: b, actor: deterministic, executor: {kind: transform, expr: '1'}}
      b:
        transitions:
          to_a: {target: a, actor: deterministic}
`)
	c := load(t, src)
	j := &memJournal{}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	// reference 000: the depth limit is a stop (paused, resumable), not a failure
	if res.Status != record.Paused || !strings.Contains(strings.Join(res.Warnings, "\n"), "maxChainDepth 5 reached") || len(res.Chain) != 5 || res.State != "b" {
		t.Fatalf("%s %q chain %d state %s", res.Status, res.Error, len(res.Chain), res.State)
	}
	res, _ = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j})
	if res.Status != record.Paused || len(res.Chain) != 5 || len(j.transitions) != 10 || res.Chain[0].FromState != "b" {
		t.Fatalf("resumed: %s chain %v journal %d", res.Status, res.Chain, len(j.transitions))
	}
}

// TestBranchingEveryOperatorAndCompose walks reference 003's branches:
// each task's result string picks the first matching branch, and compose
// stores a JSONPath value that a later template reads as {{.var}}.
func TestBranchingEveryOperatorAndCompose(t *testing.T) {
	src := wf(`    states:
      a:
        task: {kind: transform, expr: '{"user": {"id": 42, "name": "ada"}, "code": "api_failure"}'}
        transition:
          branches:
            - {operator: equals, when: nope, goto: bad}
            - operator: default
              when: ""
              goto: b
              compose: {with_var: extracted_id, strategy: "json_path:$.user.id"}
      b:
        task: {kind: transform, expr: 'a.code'}
        transition:
          branches:
            - {operator: not_contains, when: fail, goto: bad}
            - {operator: contains, when: fail, goto: c}
      c:
        task: {kind: cli, run: 'echo "id={{.extracted_id}}"'}
        transition:
          branches:
            - {operator: not_equals, when: ok, goto: bad}
            - {operator: equals, when: ok, goto: d}
      d:
        task: {kind: transform, expr: 'extracted_id * 5'}
        transition:
          branches:
            - {operator: range, when: "0,199", goto: bad}
            - {operator: range, when: "200,299", goto: e}
            - {operator: default, goto: bad}
      e:
        task: {kind: cli, run: 'exit 3'}
        transition:
          branches:
            - {operator: equals, when: failed, goto: end}
            - {operator: default, goto: bad}
      bad: {terminal: true}
`)
	res := runChain(t, src, nil)
	if res.Status != record.Succeeded || res.State != "end" {
		t.Fatalf("%s %s %s", res.Status, res.State, res.Error)
	}
	var path []string
	for _, e := range res.Chain {
		path = append(path, e.FromState+"("+e.Result+")")
	}
	if got := strings.Join(path, " "); got != "a({\"code\":\"api_failure\",\"user\":{\"id\":42,\"name\":\"ada\"}}) b(api_failure) c(ok) d(210) e(failed)" {
		t.Errorf("path %s", got)
	}
	if asJSON(t, res.Vars["extracted_id"]) != "42" || res.Vars["c"] != "id=42" {
		t.Errorf("vars %v", res.Vars)
	}
}

func TestBranchFailureIsNotSwallowedByDefault(t *testing.T) {
	src := wf(`    states:
      a:
        task: {kind: cli, run: 'echo broken >&2; exit 1'}
        transition:
          branches:
            - {operator: equals, when: ok, goto: end}
            - {operator: default, goto: end}
`)
	res := runChain(t, src, nil)
	if res.Status != record.Failed || !strings.Contains(res.Error, "state a: task failed") || asJSON(t, res.Links) != `[{"transition":"a","title":"Retry: A"}]` {
		t.Errorf("%s %q %v", res.Status, res.Error, res.Links)
	}
	nomatch := wf(`    states:
      a:
        task: {kind: transform, expr: '"maybe"'}
        transition:
          branches:
            - {operator: equals, when: "yes", goto: end}
`)
	res = runChain(t, nomatch, nil)
	if res.Status != record.Failed || !strings.Contains(res.Error, `no branch matches the task's result "maybe"`) {
		t.Errorf("%s %q", res.Status, res.Error)
	}
}

func TestHTTPTaskBranchesOnStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.Error(w, `{"error": "no such user"}`, http.StatusNotFound)
			return
		}
		w.Write([]byte(`{"user": {"id": "u-7"}}`))
	}))
	defer srv.Close()
	src := wf(`    inputSchema: {type: object, properties: {path: {type: string}}}
    states:
      a:
        task: {kind: http, url: '` + srv.URL + `/{input.path}'}
        transition:
          branches:
            - {operator: range, when: "200,299", goto: found, compose: {with_var: uid, strategy: "json_path:$.user.id"}}
            - {operator: range, when: "400,499", goto: missing}
      found: {terminal: true}
      missing: {terminal: true}
`)
	res := runChain(t, src, map[string]string{"path": "missing"})
	if res.Status != record.Succeeded || res.State != "missing" || res.Chain[0].Result != "404" {
		t.Errorf("404: %s %s %v %s", res.Status, res.State, res.Chain, res.Error)
	}
	res = runChain(t, src, map[string]string{"path": "u"})
	if res.Status != record.Succeeded || res.State != "found" || res.Vars["uid"] != "u-7" {
		t.Errorf("200: %s %s %v", res.Status, res.State, res.Vars)
	}
}

const decisionWorkflow = `version: '1'
workflows:
  w:
    initialState: review
    states:
      review:
        goal: Ship or not
        guidance: Ship when the checks passed.
        transitions:
          ship: {target: shipped, actor: agent, title: Ship it}
          hold: {target: held, actor: agent}
          escalate: {target: held, actor: human}
      shipped: {terminal: true}
      held: {terminal: true}
`

func TestAgentDecisionThroughAModel(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			s := llmtest.New(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "deploy_everything"}`}}},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "hold", "reason": "not sure"}`}}},
			)
			defer s.Close()
			model := provider + "/m1"
			res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil))).Run(context.Background(),
				Request{Chain: load(t, decisionWorkflow), AgentModel: model})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Succeeded || res.State != "held" || res.Chain[0].DecidedBy != "model:"+model || res.Usage.LLMCalls != 2 {
				t.Fatalf("%s %s %+v usage %+v %s", res.Status, res.State, res.Chain, res.Usage, res.Error)
			}
			reqs := s.Requests()
			body := asJSON(t, reqs[0].Body)
			for _, want := range []string{`"choose_transition"`, `"enum":["ship","hold"]`, "Ship when the checks passed.", "ship: Ship it"} {
				if !strings.Contains(body, want) {
					t.Errorf("first request lacks %s: %s", want, body)
				}
			}
			if strings.Contains(body, "escalate") {
				t.Error("a human link was offered to the model")
			}
			if !strings.Contains(asJSON(t, reqs[1].Body), "is not one of the offered transitions") {
				t.Error("the second request does not say what was wrong")
			}
		})
	}
}

func TestAgentDecisionNeedsAUsableModelBeforeAnythingRuns(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "x"})
	defer s.Close()
	_, err := New(WithModels(registryFor(s, map[string]string{"OPENAI_API_KEY": ""}))).Run(context.Background(),
		Request{Chain: load(t, decisionWorkflow), AgentModel: "openai/m1"})
	var me *response.PreflightError
	if !errors.As(err, &me) || me.Kind != response.BadModel || s.Count() != 0 {
		t.Fatalf("err %v, %d calls", err, s.Count())
	}
}

func TestHumanDecisionAndPause(t *testing.T) {
	var asked response.Decision
	human := func(_ context.Context, d response.Decision) (response.Choice, bool, error) {
		asked = d
		return response.Choice{Transition: "escalate"}, true, nil
	}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, decisionWorkflow), Human: human})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.Chain[0].DecidedBy != "human" || len(asked.Links) != 3 || asked.Goal != "Ship or not" {
		t.Fatalf("%s %+v asked %+v", res.Status, res.Chain, asked)
	}
	decline := func(context.Context, response.Decision) (response.Choice, bool, error) {
		return response.Choice{}, false, nil
	}
	res, _ = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, decisionWorkflow), Human: decline})
	if res.Status != record.Paused || len(res.Links) != 3 {
		t.Fatalf("declined: %s %v", res.Status, res.Links)
	}
}

func TestDecisionTimeout(t *testing.T) {
	src := `version: '1'
workflows:
  w:
    initialState: wait
    states:
      wait:
        goal: Approve
        timeout: 1h
        on_timeout: reject
        transitions:
          approve: {target: done, actor: human}
          reject: {target: done, actor: human}
      done: {terminal: true}
`
	c := load(t, src)
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	e := New(WithDir(t.TempDir()))
	e.Now = func() time.Time { return now }
	j := &memJournal{}
	id := NewRunID(now)
	res, _ := e.Run(context.Background(), Request{RunID: id, Chain: c, Journal: j})
	if res.Status != record.Paused || res.Deadline != "2026-01-01T11:00:00Z" {
		t.Fatalf("%s deadline %q", res.Status, res.Deadline)
	}
	now = now.Add(30 * time.Minute)
	res, _ = e.Run(context.Background(), Request{RunID: id, Chain: c, History: j.transitions})
	if res.Status != record.Paused {
		t.Fatalf("before the deadline: %s", res.Status)
	}
	now = now.Add(31 * time.Minute)
	res, _ = e.Run(context.Background(), Request{RunID: id, Chain: c, History: j.transitions})
	if res.Status != record.Succeeded || res.Chain[0].Transition != "reject" || res.Chain[0].DecidedBy != "timeout" {
		t.Fatalf("after the deadline: %s %+v", res.Status, res.Chain)
	}
}

func TestConditionKeyTask(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "Invalid."})
	defer s.Close()
	src := wf(`    states:
      a:
        task: {kind: agent, model: openai/m, prompt: 'Is 2+2=5 valid?', condition_key: [valid, invalid]}
        transition:
          branches:
            - {operator: equals, when: valid, goto: yes}
            - {operator: equals, when: invalid, goto: no}
      yes: {terminal: true}
      no: {terminal: true}
`)
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.State != "no" || res.Vars["a"] != "invalid" {
		t.Fatalf("%s %s %v %s", res.Status, res.State, res.Vars, res.Error)
	}
	if !strings.Contains(s.Requests()[0].LastUserMessage(), "exactly one of these words and nothing else: valid, invalid") {
		t.Error("the prompt does not list the keywords")
	}
}

func TestAgentTaskBranchesOnFinishReason(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "cut", Finish: "length"})
	defer s.Close()
	src := wf(`    states:
      a:
        task: {kind: agent, model: openai/m, prompt: 'Write a lot'}
        transition:
          branches:
            - {operator: equals, when: stop, goto: complete}
            - {operator: equals, when: length, goto: truncated}
      complete: {terminal: true}
      truncated: {terminal: true}
`)
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.State != "truncated" {
		t.Fatalf("%s %s %s", res.Status, res.State, res.Error)
	}
}

func TestWorkflowResultShape(t *testing.T) {
	res := runChain(t, wf("    states:\n      a: {terminal: true}\n"), nil)
	var m map[string]any
	json.Unmarshal([]byte(asJSON(t, res)), &m)
	for _, k := range []string{"state", "chain", "context", "links", "run_id", "status", "steps", "vars", "usage"} {
		if _, ok := m[k]; !ok {
			t.Errorf("result lacks %s: %v", k, m)
		}
	}
	var back record.Result
	if err := json.Unmarshal([]byte(asJSON(t, res)), &back); err != nil || back.WorkflowResult == nil || back.State != "a" {
		t.Errorf("round trip: %v %+v", err, back)
	}
	if !reflect.DeepEqual(res.Output, map[string]any{}) {
		t.Errorf("output %v", res.Output)
	}
}

func TestWorkflowSecretInputsAreMaskedInRecordsAndResults(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      properties:
        token: {type: string, writeOnly: true}
    states:
      a:
        transitions:
          use:
            target: b
            actor: deterministic
            executor: {kind: cli, run: 'echo "{\"seen\": \"{input.token}\"}"'}
      b: {terminal: true}
`)
	j := &memJournal{}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: map[string]string{"token": "s3cr3t-value"}, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded {
		t.Fatalf("%s %s", res.Status, res.Error)
	}
	for what, v := range map[string]any{"result": res, "journal": j.transitions} {
		if s := asJSON(t, v); strings.Contains(s, "s3cr3t-value") || !strings.Contains(s, "***") {
			t.Errorf("%s shows the secret or masks nothing: %s", what, s)
		}
	}
}

// TestDepthLimitAtADecisionPointPauses: once maxChainDepth is reached, a
// decision point is not sent to the model: the run pauses there.
func TestDepthLimitAtADecisionPointPauses(t *testing.T) {
	src := `version: '1'
workflows:
  w:
    initialState: a
    maxChainDepth: 1
    states:
      a:
        transitions:
          go: {target: d, actor: deterministic}
      d:
        goal: Choose
        transitions:
          fin: {target: done, actor: agent}
      done: {terminal: true}
`
	s := llmtest.New(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "fin"}`}}})
	defer s.Close()
	e := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil)))
	j := &memJournal{}
	res, err := e.Run(context.Background(), Request{Chain: load(t, src), AgentModel: "openai/m", Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || res.State != "d" || s.Count() != 0 || len(res.Warnings) == 0 {
		t.Fatalf("%s at %s, %d model calls, warnings %v", res.Status, res.State, s.Count(), res.Warnings)
	}
	res, _ = e.Run(context.Background(), Request{Chain: load(t, src), AgentModel: "openai/m", History: j.transitions})
	if res.Status != record.Succeeded || s.Count() != 1 || res.Chain[0].DecidedBy != "model:openai/m" {
		t.Fatalf("resumed: %s, %d model calls, %+v", res.Status, s.Count(), res.Chain)
	}
}

func TestInputTypesFromUnionsAndRefs(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      definitions:
        count: {type: integer, minimum: 1}
      properties:
        n: {type: [integer, "null"]}
        m: {$ref: "#/definitions/count"}
    states:
      a:
        transitions:
          big: {target: b, actor: deterministic, condition: 'input.n + input.m > 6'}
          small: {target: c, actor: deterministic, condition: 'input.n + input.m <= 6'}
      b: {terminal: true}
      c: {terminal: true}
`)
	res := runChain(t, src, map[string]string{"n": "5", "m": "2"})
	if res.Status != record.Succeeded || res.State != "b" {
		t.Fatalf("%s %s %s", res.Status, res.State, res.Error)
	}
	_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: map[string]string{"n": "1", "m": "0"}})
	if err == nil || !strings.Contains(err.Error(), "inputSchema") {
		t.Fatalf("m=0 breaks minimum 1: %v", err)
	}
}

func TestFailedNonIdempotentExecutorOffersRetryWithRerun(t *testing.T) {
	src := wf(`    states:
      a:
        transitions:
          pay: {target: b, actor: deterministic, executor: {kind: cli, run: 'exit 1', idempotent: false}}
      b: {terminal: true}
`)
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Journal: &memJournal{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Failed || len(res.Links) != 1 || !res.Links[0].Rerun {
		t.Fatalf("%s %+v", res.Status, res.Links)
	}
}

// TestResumeNeverPassesMaskedSecretsOn: a value derived from a secret
// input is saved masked; a resume leaves it unset (a step reading it
// fails, naming it) instead of passing *** on as if it were the value.
func TestResumeNeverPassesMaskedSecretsOn(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      properties:
        token: {type: string, writeOnly: true}
    states:
      a:
        task: {kind: transform, expr: '"Bearer " + input.token'}
        transition:
          branches:
            - {operator: default, goto: b}
      b:
        goal: Go?
        transitions:
          go: {target: done, actor: human, executor: {kind: cli, run: 'echo "{a}"'}}
      done: {terminal: true}
`)
	c := load(t, src)
	j := &memJournal{}
	in := map[string]string{"token": "s3cret"}
	res, _ := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: in, Journal: j})
	if res.Status != record.Paused || !j.transitions[0].Vars["a"].Masked || strings.Contains(asJSON(t, j.transitions), "s3cret") {
		t.Fatalf("%s %+v", res.Status, j.transitions)
	}
	res, _ = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: in, History: j.transitions, Take: "go"})
	if res.Status != record.Failed || !strings.Contains(res.Error, "{a}") || len(res.Warnings) == 0 || strings.Contains(asJSON(t, res), "Bearer ***") {
		t.Fatalf("%s %q %v", res.Status, res.Error, res.Warnings)
	}
}
