package run

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// flowOf is a workflow file of one workflow w whose states are given,
// beginning at a, with the file-level keys in top.
func flowOf(top, states string) string {
	return top + "workflows:\n  w:\n    initialState: a\n    states:\n" + states
}

func runFlow(t *testing.T, src string, req Request, opts ...Option) *record.Result {
	t.Helper()
	req.Chain = load(t, src)
	res, err := New(append([]Option{WithDir(t.TempDir()), withCatalog}, opts...)...).Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestScriptExecutorRunsTheLibrarysScript(t *testing.T) {
	src := flowOf(`scripts:
  emit.plan:
    verb: run
    body: |
      #!/usr/bin/env bash
      echo "{\"subject\": \"$FLOWGATE_SCRIPT_SUBJECT\", \"arg\": \"$1\", \"hashed\": \"${FLOWGATE_SCRIPT_HASH:0:7}\", \"dir\": \"$(basename "$PWD")\"}"
  fail.three:
    verb: test
    body: |
      echo broken >&2
      exit 3
`, `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: script, subject: emit.plan, args: ["$.workflow.input.who"], workingDirectory: sub}
            output:
              plan: "$.output.json"
      b:
        transitions:
          check:
            target: c
            actor: deterministic
            executor: {kind: script, subject: fail.three, treatNonZeroAsFailure: false}
            output:
              code: "$.output.exitCode"
      c:
        transitions:
          fail:
            target: d
            actor: deterministic
            executor: {kind: script, subject: fail.three}
      d: {terminal: true}
`)
	c := load(t, strings.Replace(src, "    initialState: a\n", "    inputSchema: {type: object, properties: {who: {type: string}}}\n    initialState: a\n", 1))
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"who": "ann"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(t, res.Context); got != `{"code":3,"plan":{"arg":"ann","dir":"sub","hashed":"sha256:","subject":"emit.plan"}}` {
		t.Errorf("context %s", got)
	}
	if res.Status != record.Failed || !strings.Contains(res.Error, "transition fail failed: script fail.three exited with code 3: broken") || !strings.Contains(step(t, res, "fail").Stderr, "broken") {
		t.Errorf("status %s error %q steps %+v", res.Status, res.Error, res.Steps)
	}
}

func TestRESTExecutorGoesThroughItsConnection(t *testing.T) {
	var got struct {
		method, path, query, auth, key, ctype string
		body                                  map[string]any
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.path, got.query = r.Method, r.URL.Path, r.URL.RawQuery
		got.auth, got.key, got.ctype = r.Header.Get("Authorization"), r.Header.Get("Idempotency-Key"), r.Header.Get("Content-Type")
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &got.body)
		w.Write([]byte(`{"id": "doc-7", "url": "https://docs/7"}`))
	}))
	defer srv.Close()
	t.Setenv("DOCS_TOKEN", "s3cret")
	src := flowOf("connections:\n  docs: {kind: rest, baseUrl: '"+srv.URL+"/v1/', headers: {Authorization: 'Bearer ${DOCS_TOKEN}'}}\n", `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: rest
              connection: docs
              method: POST
              path: /folders/{folder}/documents
              query: {draft: true, owner: "$.context.owner"}
              body:
                title: "$.workflow.input.topic"
                content: "$.context.text"
                tags: [news, "$.context.owner"]
              idempotencyKey: true
            output:
              documentId: "$.output.id"
              status: "$.output.status"
      b: {terminal: true}
`)
	src = strings.Replace(src, "    initialState: a\n", "    inputSchema: {type: object, properties: {topic: {type: string}}}\n    initialContext: {folder: 'a b', owner: ann, text: hello}\n    initialState: a\n", 1)
	res := runFlow(t, src, Request{Inputs: map[string]string{"topic": "Go"}})
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	if got.method != "POST" || got.path != "/v1/folders/a b/documents" || got.query != "draft=true&owner=ann" || got.auth != "Bearer s3cret" ||
		got.ctype != "application/json" || !strings.HasPrefix(got.key, res.RunID+".go") {
		t.Errorf("request %+v", got)
	}
	if b, _ := json.Marshal(got.body); string(b) != `{"content":"hello","tags":["news","ann"],"title":"Go"}` {
		t.Errorf("body %s", b)
	}
	if got := asJSON(t, res.Context); got != `{"documentId":"doc-7","folder":"a b","owner":"ann","status":200,"text":"hello"}` {
		t.Errorf("context %s", got)
	}
	if strings.Contains(asJSON(t, res), "s3cret") {
		t.Error("the header's secret is in the result")
	}

	// a connection reading an unset variable fails the step, naming it
	t.Setenv("DOCS_TOKEN", "")
	os.Unsetenv("DOCS_TOKEN")
	res = runFlow(t, src, Request{Inputs: map[string]string{"topic": "Go"}})
	if res.Status != record.Failed || !strings.Contains(res.Error, "connection docs header Authorization reads the environment variable DOCS_TOKEN, which is not set") {
		t.Errorf("%s: %s", res.Status, res.Error)
	}
}

func TestParallelExecutorJoins(t *testing.T) {
	fanOut := func(fields string) string {
		return flowOf("", `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: parallel
`+indentBy(fields, "              ")+`            output:
              summary: "$.output.summary"
              outs: "$.output.branches[*].output"
      b: {terminal: true}
`)
	}
	ok, bad, slow := "{kind: cli, run: 'echo ok'}", "{kind: cli, run: 'echo no >&2; exit 1'}", "{kind: cli, run: 'sleep 30'}"
	cases := []struct {
		name, fields string
		status       record.Status
		want         string // in the error, or in the summary
	}{
		{"all succeed", "branches: [" + ok + ", {kind: noop}, {kind: transform, expr: '1 + 1'}]", record.Succeeded, `"ok_count":3`},
		{"all, a branch fails", "branches: [" + ok + ", " + bad + "]\non_branch_failure: continue", record.Failed,
			"join all not met (failed): 1 of 2 branches succeeded; branch 2 (cli) failed: exited with code 1: no"},
		{"bail stops the others", "branches: [" + bad + ", " + slow + ", " + slow + "]", record.Failed, "0 of 3 branches succeeded; branch 1 (cli) failed"},
		{"any", "join: any\non_branch_failure: continue\nbranches: [" + bad + ", " + ok + "]", record.Succeeded, `"ok_count":1`},
		{"at_least met", "join: {at_least: 2}\non_branch_failure: continue\nbranches: [" + ok + ", " + bad + ", " + ok + "]", record.Succeeded, `"ok_count":2`},
		{"at_least out of reach", "join: {at_least: 2}\non_branch_failure: continue\nbranches: [" + bad + ", " + bad + ", " + ok + "]", record.Failed, "join at_least 2 not met (threshold_not_met)"},
		{"percent", "join: {percent: 50}\non_branch_failure: continue\nbranches: [" + ok + ", " + bad + "]", record.Succeeded, `"verdict":"succeeded"`},
		{"expression", "join: {expression: \"$.failed_count <= 1\"}\non_branch_failure: continue\nbranches: [" + ok + ", " + bad + "]", record.Succeeded, `"join":"expression"`},
		{"fan-out", "max_concurrency: 2\nbranches:\n  for_each: \"$.context.items\"\n  where: \"$.value != 'skip'\"\n  do: {kind: cli, command: echo, args: [\"{item}\", \"$.branch.index\"]}", record.Succeeded, `["x 0","y 2"]`},
		{"fan-out over nothing", "branches: {for_each: \"$.context.none\", do: {kind: noop}}", record.Succeeded, `"n":0`},
		{"nested too deep", "max_recursion_depth: 1\nbranches:\n  - kind: parallel\n    branches: [{kind: noop}]", record.Failed, "parallel steps nest 2 deep, more than max_recursion_depth 1"},
		{"total timeout", "total_timeout_ms: 200\nbranches: [" + slow + "]", record.Failed, "total_timeout_ms 200 passed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(fanOut(tc.fields), "    initialState: a\n", "    initialContext: {items: [x, skip, y]}\n    initialState: a\n", 1)
			res := runFlow(t, src, Request{})
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", res.Status, tc.status, res.Error)
			}
			text := res.Error + asJSON(t, res.Context)
			if !strings.Contains(text, tc.want) {
				t.Errorf("no %q in %s", tc.want, text)
			}
		})
	}
}

func indentBy(s, by string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		b.WriteString(by + line + "\n")
	}
	return b.String()
}

// subflows is a file of an orchestrator and the capability it calls,
// whose decision takes a verdict; a cli step of the capability fails
// while the file fail exists in the run's directory.
const subflows = `workflows:
  orch:
    inputSchema: {type: object, properties: {brief: {type: string}}}
    initialContext: {draft: {steps: 3}}
    initialState: vetting
    states:
      vetting:
        transitions:
          vet:
            target: vetted
            actor: deterministic
            executor:
              kind: workflow
              definitionId: cap.vet
              use:
                inputs: {plan: "$.context.draft", brief: "$.workflow.input.brief", max: 2}
                outputs:
                  "$.context.verdict": verdict
                  "$.context.seen": seen
      vetted:
        transitions:
          finish:
            target: done
            actor: deterministic
            condition: 'context.verdict == "pass"'
      done: {terminal: true}
  cap.vet:
    inputSchema:
      type: object
      required: [plan]
      properties: {plan: {type: object}, brief: {type: string}, max: {type: integer}}
    initialState: checking
    states:
      checking:
        transitions:
          check:
            target: ready
            actor: deterministic
            executor: {kind: cli, run: 'test ! -f fail && echo checked'}
            output:
              seen: "$.input.plan.steps"
      ready:
        goal: Vet the plan
        transitions:
          submit:
            target: done
            actor: agent
            inputSchema: {type: object, required: [verdict], properties: {verdict: {type: string, enum: [pass, fail]}}}
            executor: {kind: noop}
            output:
              verdict: "$.arguments.verdict"
      done: {terminal: true}
`

func TestWorkflowExecutorPausesTheRunAtItsDecision(t *testing.T) {
	c := load(t, subflows)
	dir := t.TempDir()
	j := &memJournal{}
	l := New(WithDir(dir))
	res, err := l.Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"brief": "b"}, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || res.State != "vetting" || asJSON(t, res.Within) != `[{"step":"vet","workflow":"cap.vet","state":"ready"}]` {
		t.Fatalf("%s at %s within %s: %s", res.Status, res.State, asJSON(t, res.Within), res.Error)
	}
	if asJSON(t, res.Links) != `[{"transition":"submit","title":"Submit","actor":"agent","requiredArguments":[{"name":"verdict","type":"string","enum":["pass","fail"]}]}]` || res.Guidance == nil || res.Guidance.Goal != "Vet the plan" {
		t.Errorf("links %s guidance %+v", asJSON(t, res.Links), res.Guidance)
	}
	// the journal holds where the workflow began, then its own transition
	if len(j.transitions) != 2 || j.transitions[0].Enter == nil || j.transitions[0].Enter.Transition != "vet" ||
		j.transitions[1].Within != "vet" || j.transitions[1].To != "ready" || j.transitions[1].Step.ID != "vet/check" {
		t.Fatalf("journal %s", asJSON(t, j.transitions))
	}

	// a --take the workflow does not offer, or arguments its schema
	// refuses: nothing runs
	for take, args := range map[string]map[string]any{"vet": nil, "nope": nil, "submit": {"verdict": "maybe"}} {
		_, err = l.Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"brief": "b"}, History: j.transitions, Take: take, Args: args, Journal: j})
		var te *response.TakeError
		var ae *response.ArgError
		if take != "vet" && !errors.As(err, &te) && !errors.As(err, &ae) {
			t.Errorf("--take %s %v: %v", take, args, err)
		}
	}
	j.transitions = j.transitions[:2]

	res, err = l.Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"brief": "b"}, History: j.transitions, Take: "submit", Args: map[string]any{"verdict": "pass"}, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.State != "done" || res.Within != nil {
		t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
	}
	if got := asJSON(t, res.Context); got != `{"draft":{"steps":3},"seen":3,"verdict":"pass"}` {
		t.Errorf("context %s", got)
	}
	if got := asJSON(t, res.Chain); got != `[{"fromState":"vetting","transition":"vet","toState":"vetted"},{"fromState":"vetted","transition":"finish","toState":"done"}]` {
		t.Errorf("chain %s", got)
	}
	if strings.Count(strings.Join(calls(t, dir), " "), "check") != 0 || len(j.transitions) != 5 {
		t.Errorf("journal %s", asJSON(t, j.transitions))
	}
}

func TestWorkflowExecutorFailureIsRetriedWhereItStopped(t *testing.T) {
	c := load(t, subflows)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "fail"), nil, 0o644)
	j := &memJournal{}
	l := New(WithDir(dir))
	res, err := l.Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Failed || asJSON(t, res.Links) != `[{"transition":"vet","title":"Retry: Vet"}]` ||
		!strings.Contains(res.Error, "transition vet failed: workflow cap.vet failed at state checking: transition check failed") ||
		asJSON(t, res.Within) != `[{"step":"vet","workflow":"cap.vet","state":"checking"}]` {
		t.Fatalf("%s links %s within %s: %s", res.Status, asJSON(t, res.Links), asJSON(t, res.Within), res.Error)
	}
	os.Remove(filepath.Join(dir, "fail"))
	res, err = l.Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "vet", Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || asJSON(t, res.Within) != `[{"step":"vet","workflow":"cap.vet","state":"ready"}]` {
		t.Fatalf("%s within %s: %s", res.Status, asJSON(t, res.Within), res.Error)
	}
	// the workflow went on where it was: one beginning in the journal
	enters := 0
	for _, r := range j.transitions {
		if r.Enter != nil {
			enters++
		}
	}
	if enters != 1 {
		t.Errorf("journal %s", asJSON(t, j.transitions))
	}
}

func TestWorkflowCallsAreCheckedBeforeAnythingRuns(t *testing.T) {
	cycle := `workflows:
  a:
    initialState: s
    states:
      s:
        transitions:
          go: {target: e, actor: deterministic, executor: {kind: workflow, definitionId: b}}
      e: {terminal: true}
  b:
    initialState: s
    states:
      s:
        task: {kind: workflow, definitionId: a}
        transition: {branches: [{operator: default, goto: end}]}
`
	cases := map[string]struct{ src, want string }{
		"cycle":   {cycle, `test.yaml:13:32: state "s" task: workflows call each other in a cycle: a → b → a`},
		"unknown": {strings.Replace(subflows, "definitionId: cap.vet", "definitionId: cap.vat", 1), `test.yaml:14:15: transition "vet" executor: definitionId cap.vat: no workflow of test.yaml is named cap.vat, and no chains directory is open to find it in`},
		"inputs": {strings.Replace(strings.Replace(subflows, "max: 2}", "max: 2, mood: x}", 1), "      required: [plan]\n", "      required: [plan]\n      additionalProperties: false\n", 1),
			`use.inputs: workflow cap.vet has no input mood (its inputs are plan, brief, max)`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := CheckCalls(load(t, tc.src), Resolvers{})
			var ve *chain.ValidationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
			_, err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, tc.src)})
			var pe *response.PreflightError
			if !errors.As(err, &pe) {
				t.Errorf("run: %v", err)
			}
		})
	}
}

func TestWorkflowStepOutsideAWorkflowCannotWait(t *testing.T) {
	src := `workflows:
  w:
    initialState: a
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: parallel
              branches: [{kind: workflow, definitionId: asks}]
      b: {terminal: true}
  asks:
    initialState: q
    states:
      q:
        goal: Decide
        transitions: {yes: {target: d}}
      d: {terminal: true}
`
	res := runFlow(t, src, Request{})
	if res.Status != record.Failed || !strings.Contains(res.Error, "workflow asks waits for a decision at state q (yes): a workflow step waits for one only as a workflow's executor or task") {
		t.Errorf("%s: %s", res.Status, res.Error)
	}
}

// TestRerunNamesAWorkflowStepsStep: a non-idempotent step of a workflow a
// workflow step runs is confirmed as STEP/ID, as a called chain's is.
func TestRerunNamesAWorkflowStepsStep(t *testing.T) {
	c := load(t, subflows)
	if _, err := resume.RerunSet(c, []string{"vet/check"}); err != nil {
		t.Errorf("vet/check: %v", err)
	}
	if _, err := resume.RerunSet(c, []string{"finish/x"}); err == nil {
		t.Error("finish/x: a step of no workflow step was accepted")
	}
}

// TestWorkflowOfNoDeclaredInputsTakesWhatItIsGiven: a workflow that says
// nothing of its inputs is given use.inputs as they are (an object stays
// one), unchecked; one that declares them refuses the others.
func TestWorkflowOfNoDeclaredInputsTakesWhatItIsGiven(t *testing.T) {
	src := `workflows:
  w:
    initialContext: {plan: {steps: 2}}
    initialState: a
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: workflow
              definitionId: sub
              use:
                inputs: {plan: "$.context.plan", note: hi}
                outputs: {"$.context.got": got}
      b: {terminal: true}
  sub:
    initialState: s
    states:
      s:
        transitions:
          read:
            target: e
            actor: deterministic
            output:
              got: {concat: ["$.input.note", "-", "$.input.plan.steps"]}
      e: {terminal: true}
`
	if err := CheckCalls(load(t, src), Resolvers{}); err != nil {
		t.Fatal(err)
	}
	res := runFlow(t, src, Request{})
	if res.Status != record.Succeeded || res.Context["got"] != "hi-2" {
		t.Errorf("%s %v: %s", res.Status, res.Context, res.Error)
	}
}

// TestScriptOfAnotherFilesLibrary: a subject its own file's scripts:
// lacks is run from the nearest other file's; one nowhere is refused
// before anything runs, naming the line and the subjects there are.
func TestScriptOfAnotherFilesLibrary(t *testing.T) {
	root := t.TempDir()
	for rel, src := range map[string]string{
		"scripts-library/lib.yaml": "version: '1'\nscripts:\n  say.hi: {verb: run, body: 'echo \"{\\\"said\\\": \\\"hi $FLOWGATE_SCRIPT_SUBJECT\\\"}\"'}\n",
		"capabilities/cap.yaml": flowOf("", `      a:
        transitions:
          go: {target: b, actor: deterministic, executor: {kind: script, subject: say.hi}}
      b: {terminal: true}
`),
		"capabilities/typo.yaml": flowOf("", `      a:
        transitions:
          go: {target: b, actor: deterministic, executor: {kind: script, subject: say.ho}}
      b: {terminal: true}
`),
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib := &catalog.Library{Dir: filepath.Join(root, "chains")}
	r := Resolvers{Scripts: lib.FindScript}
	good, err := chain.LoadFile(filepath.Join(root, "capabilities/cap.yaml"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckCalls(good.Chain, r); err != nil {
		t.Fatal(err)
	}
	res, err := New(WithDir(root), WithScripts(lib.FindScript)).Run(context.Background(), Request{Chain: good.Chain})
	if err != nil || res.Status != record.Succeeded || asJSON(t, res.Context) != `{"said":"hi say.hi"}` {
		t.Fatalf("%v %+v", err, res)
	}
	bad, err := chain.LoadFile(filepath.Join(root, "capabilities/typo.yaml"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// a subject found nowhere is a pending definition: validate warns of
	// it, a run refuses it before anything runs
	if err := CheckCalls(bad.Chain, r); err != nil {
		t.Errorf("CheckCalls: %v", err)
	}
	warned := PendingDefinitions(bad.Chain, r)
	if len(warned) != 1 || !warned[0].Warning || !strings.Contains(warned[0].String(), `typo.yaml:7:74: warning: transition "go" executor: script "say.ho" (kind: script) is in no scripts: library: not its own file's (it declares none), nor one of`) ||
		!strings.Contains(warned[0].Message, "(did you mean say.hi?)") || !strings.HasSuffix(warned[0].Message, "(running it would stop here)") {
		t.Errorf("PendingDefinitions: %v", warned)
	}
	res, err = New(WithDir(root), WithScripts(lib.FindScript)).Run(context.Background(), Request{Chain: bad.Chain})
	var pe *response.PreflightError
	if res != nil || !errors.As(err, &pe) || pe.Kind != response.Pending || !strings.Contains(err.Error(), `script "say.ho" (kind: script) is in no scripts: library`) ||
		!strings.HasSuffix(err.Error(), "nothing was run") {
		t.Errorf("run: %v %+v", err, res)
	}
}

// TestWorkflowEditedUnderARunIsRefused: a resume that would go on inside a
// workflow whose file lost the state the run stands at there is refused,
// and nothing runs.
func TestWorkflowEditedUnderARunIsRefused(t *testing.T) {
	c := load(t, subflows)
	j := &memJournal{}
	l := New(WithDir(t.TempDir()))
	if res, err := l.Run(context.Background(), Request{Chain: c, Journal: j}); err != nil || res.Status != record.Paused {
		t.Fatalf("%v %+v", err, res)
	}
	edited := load(t, strings.ReplaceAll(subflows, "ready", "waiting"))
	_, err := l.Run(context.Background(), Request{Chain: edited, History: j.transitions, Take: "submit", Args: map[string]any{"verdict": "pass"}})
	var ce *response.ChangedError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "workflow cap.vet (test.yaml) no longer has state ready") {
		t.Errorf("got %v", err)
	}
}
