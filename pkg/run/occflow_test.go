package run

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// savedSteps is a journal's last record of each step, as a resume gets it.
func savedSteps(j *memJournal) map[string]record.StepRecord {
	out := map[string]record.StepRecord{}
	for _, rec := range j.done {
		out[rec.Result.ID] = rec
	}
	return out
}

const routerChain = `
name: r
steps:
  - id: classify
    type: router
    model: anthropic/claude-sonnet-4-6
    prompt: "What is it?"
    routes:
      web: [ui, api]
      lib: [api, docs]
    default_route: lib
    output_var: kind
  - {id: ui, type: transform, operation: template, template_str: ui, depends_on: [classify], output_var: ui_out}
  - {id: api, type: transform, operation: template, template_str: api, depends_on: [classify], output_var: api_out}
  - {id: docs, type: transform, operation: template, template_str: docs, depends_on: [classify], output_var: docs_out}
  - {id: ui_polish, type: transform, operation: template, template_str: polish, depends_on: [ui]}
  - {id: report, type: transform, expr: 'kind + ":" + ui_out + api_out + docs_out', depends_on: [ui, api, docs], output_var: out}
output: out
`

// TestRouterSkipsUnselectedSteps: the answer picks a route (exactly, named
// in it, or default_route); the steps only other routes list are skipped
// with what depends only on them, and the rest reads their empty output.
func TestRouterSkipsUnselectedSteps(t *testing.T) {
	for _, tc := range []struct{ answer, route, out string }{
		{"web", "web", "web:uiapi"},
		{"I would say this is a **lib**rary", "lib", "lib:apidocs"},
		{"no idea", "lib", "lib:apidocs"},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			s := llmtest.New(llmtest.Reply{Text: tc.answer})
			defer s.Close()
			res := runChain(t, routerChain, nil, WithModels(registryFor(s, nil)))
			if res.Status != record.Succeeded || res.Output != tc.out {
				t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
			}
			if got := step(t, res, "classify").Decision; got != tc.route {
				t.Errorf("decision %q", got)
			}
			if !strings.Contains(s.Requests()[0].LastUserMessage(), "Answer with one of: lib, web.") {
				t.Errorf("prompt %q", s.Requests()[0].LastUserMessage())
			}
			for _, id := range []string{"ui", "ui_polish", "docs"} {
				sr := step(t, res, id)
				onRoute := strings.Contains(tc.out, strings.TrimSuffix(id, "_polish")+"")
				if id == "ui_polish" {
					onRoute = tc.route == "web"
				}
				if onRoute == (sr.Status == record.StepSkipped) {
					t.Errorf("%s: %s %q", id, sr.Status, sr.Reason)
				}
			}
		})
	}
}

// TestRouterWithoutRouteFails: an answer naming no route, without a
// default_route, fails the router step, naming the routes.
func TestRouterWithoutRouteFails(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "banana"})
	defer s.Close()
	res := runChain(t, strings.Replace(routerChain, "    default_route: lib\n", "", 1), nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Failed || !strings.Contains(res.Error, `step classify failed: the answer "banana" names none of the routes (lib, web) and there is no default_route`) {
		t.Fatalf("status %s err %s", res.Status, res.Error)
	}
}

// TestRouterChoiceIsSaved: a resumed run keeps the route chosen, without
// asking the model again.
func TestRouterChoiceIsSaved(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "web"})
	defer s.Close()
	src := strings.NewReplacer("depends_on: [ui, api, docs]", "depends_on: [ui, api, docs, boom]",
		"output: out", "  - {id: boom, type: transform, operation: template, template_str: '{f}', pre_tools: [{type: read_file, path: ok, on_error: fail, inject_as: f}], depends_on: [classify]}\noutput: out").Replace(routerChain)
	dir, j, c := t.TempDir(), &memJournal{}, load(t, src)
	first, _ := New(WithDir(dir), WithModels(registryFor(s, nil))).Run(context.Background(), Request{Chain: c, Journal: j})
	if first.Status != record.Failed {
		t.Fatalf("first %s %s", first.Status, first.Error)
	}
	if err := os.WriteFile(dir+"/ok", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := New(WithDir(dir), WithModels(registryFor(s, nil))).Run(context.Background(), Request{Chain: c, Journal: j, Resume: savedSteps(j)})
	if err != nil || res.Status != record.Succeeded || res.Output != "web:uiapi" || s.Count() != 1 {
		t.Fatalf("resume %v: %s %#v, %d model calls", err, res.Status, res.Output, s.Count())
	}
	if docs := step(t, res, "docs"); docs.Status != record.StepSkipped || docs.Reason != "not on route web of router classify" {
		t.Errorf("docs %+v", docs)
	}
}

const evaluatorChain = `
name: e
steps:
  - {id: draft, model: anthropic/claude-sonnet-4-6, prompt: "Write it", output_var: text}
  - {id: polish, type: transform, expr: 'text + "!"', depends_on: [draft], output_var: polished}
  - id: judge
    type: evaluator
    model: anthropic/claude-sonnet-4-6
    depends_on: [polish]
    input_var: polished
    criteria: "Must mention cats"
    eval_scoring: true
    eval_threshold: 6
    on_fail: retry
    max_retries: 2
    retry_target: draft
    output_var: verdict
  - {id: after, type: transform, expr: 'verdict + " " + polished', depends_on: [judge], output_var: out}
output: out
`

// TestEvaluatorRetriesTarget: a score under the threshold runs
// retry_target again with the evaluation in its prompt, and the steps
// between it and the evaluator after it; the attempts and evaluations
// are counted; the verdict is the output.
func TestEvaluatorRetriesTarget(t *testing.T) {
	var drafts atomic.Int32
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		msg := r.LastUserMessage()
		if strings.HasPrefix(msg, "Write it") {
			n := drafts.Add(1)
			if n > 1 && !strings.Contains(msg, "[Evaluation of your previous answer by step judge: FAIL]\n3\nno cats") {
				return llmtest.Reply{Text: "feedback missing: " + msg}
			}
			return llmtest.Reply{Text: map[int32]string{1: "dogs", 2: "more dogs", 3: "cats"}[n]}
		}
		if strings.Contains(msg, "cats!") {
			return llmtest.Reply{Text: "8\nnice cats"}
		}
		return llmtest.Reply{Text: "3\nno cats"}
	})
	defer s.Close()
	res := runChain(t, evaluatorChain, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "PASS cats!" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	judge, draft, polish := step(t, res, "judge"), step(t, res, "draft"), step(t, res, "polish")
	if judge.Decision != "PASS" || judge.Evaluations != 3 || *judge.Score != 8 || judge.Usage.LLMCalls != 3 {
		t.Errorf("judge %+v", judge)
	}
	if draft.Attempts != 3 || draft.Usage.LLMCalls != 3 || polish.Attempts != 3 {
		t.Errorf("draft %+v polish %+v", draft, polish)
	}
	if res.Usage.LLMCalls != 6 {
		t.Errorf("usage %+v", res.Usage)
	}
	req := s.Requests()[1].LastUserMessage()
	for _, want := range []string{"Score the output below from 1 to 10", "Criteria:\nMust mention cats", "Output to evaluate:\ndogs!"} {
		if !strings.Contains(req, want) {
			t.Errorf("evaluation prompt lacks %q:\n%s", want, req)
		}
	}
}

// TestEvaluatorOnFail: after its retries (none here) a FAIL goes on as
// the output under continue and skip, and fails the step under error.
func TestEvaluatorOnFail(t *testing.T) {
	for _, tc := range []struct{ onFail, status, out, err string }{
		{"continue", "succeeded", "FAIL dogs!", ""},
		{"skip", "succeeded", "FAIL dogs!", ""},
		{"error", "failed", "", "step judge failed: the evaluation failed (the answer is FAIL; on_fail: error)"},
		{"retry", "succeeded", "FAIL dogs!", ""},
	} {
		t.Run(tc.onFail, func(t *testing.T) {
			s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
				if strings.HasPrefix(r.LastUserMessage(), "Write it") {
					return llmtest.Reply{Text: "dogs"}
				}
				return llmtest.Reply{Text: "**FAIL**: no cats"}
			})
			defer s.Close()
			src := strings.NewReplacer("    eval_scoring: true\n    eval_threshold: 6\n", "", "on_fail: retry", "on_fail: "+tc.onFail, "    max_retries: 2\n", "    max_retries: 1\n").Replace(evaluatorChain)
			if tc.onFail != "retry" {
				src = strings.NewReplacer("    max_retries: 1\n", "", "    retry_target: draft\n", "").Replace(src)
			}
			res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
			if string(res.Status) != tc.status || tc.out != "" && res.Output != tc.out || res.Error != tc.err {
				t.Fatalf("status %s output %#v err %q", res.Status, res.Output, res.Error)
			}
			if judge := step(t, res, "judge"); tc.onFail == "retry" && (judge.Evaluations != 2 || step(t, res, "draft").Attempts != 2) {
				t.Errorf("judge %+v", judge)
			}
		})
	}
}

const gateChain = `
name: g
steps:
  - {id: build, type: transform, operation: template, template_str: v1, output_var: version}
  - id: ship_ok
    type: gate
    label: Ship it
    prompt: "Ship {version}?"
    depends_on: [build]
    output_var: approval
  - {id: ship, type: transform, operation: template, template_str: "shipped {version} {approval}", depends_on: [ship_ok], output_var: shipped}
  - {id: notes, type: transform, operation: template, template_str: notes, depends_on: [build]}
output: shipped
`

// TestGatePausesAndResumes: a gate pauses the run (only its dependents
// wait); resume --take approve goes on, reject fails the run; a --take
// that decides no waiting gate is refused before anything runs.
func TestGatePausesAndResumes(t *testing.T) {
	dir, j, c := t.TempDir(), &memJournal{}, load(t, gateChain)
	first, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j, RunID: "r1"})
	if err != nil || first.Status != record.Paused {
		t.Fatalf("first: %v %s %s", err, first.Status, first.Error)
	}
	if first.WorkflowResult == nil || first.State != "ship_ok" || first.Guidance.Goal != "Ship v1?" || len(first.Links) != 2 || first.Links[0].Transition != "approve" {
		t.Fatalf("pause %+v", first.WorkflowResult)
	}
	gate := step(t, first, "ship_ok")
	if gate.Status != record.Paused || gate.WaitingSince == "" || step(t, first, "notes").Status != record.StepSucceeded || step(t, first, "ship").Status != record.StepSkipped {
		t.Errorf("steps %+v", first.Steps)
	}
	_, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Resume: savedSteps(j), Take: "maybe"})
	var te *response.TakeError
	if !errors.As(err, &te) || err.Error() != `--take maybe: the run waits at gate "ship_ok", which takes approve, reject` {
		t.Fatalf("bad take: %v", err)
	}
	_, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Take: "approve"})
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "the run waits at no gate") {
		t.Fatalf("take on a fresh run: %v", err)
	}
	again, _ := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j, Resume: savedSteps(j)})
	if again.Status != record.Paused || step(t, again, "ship_ok").WaitingSince != gate.WaitingSince {
		t.Fatalf("resume without --take: %s, %+v", again.Status, step(t, again, "ship_ok"))
	}
	saved := savedSteps(j)
	rejected, _ := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Resume: saved, Take: "reject"})
	if rejected.Status != record.Failed || rejected.Error != "step ship_ok failed: rejected (resume --take reject)" {
		t.Fatalf("reject: %s %s", rejected.Status, rejected.Error)
	}
	approved, _ := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Resume: saved, Take: "ship_ok:approve"})
	if approved.Status != record.Succeeded || approved.Output != "shipped v1 approved" || step(t, approved, "ship_ok").Decision != "approve" {
		t.Fatalf("approve: %s %#v %s", approved.Status, approved.Output, approved.Error)
	}
}

// TestGateTimeoutAndAutoApprove: gate_auto_approve_if approves at once;
// a passed timeout_hours takes on_timeout at the next resume.
func TestGateTimeoutAndAutoApprove(t *testing.T) {
	auto := runChain(t, strings.Replace(gateChain, "    output_var: approval\n", "    output_var: approval\n    gate_auto_approve_if: '{version} == \"v1\"'\n", 1), nil)
	if auto.Status != record.Succeeded || auto.Output != "shipped v1 approved" {
		t.Fatalf("auto: %s %#v %s", auto.Status, auto.Output, auto.Error)
	}
	for _, tc := range []struct{ onTimeout, status, out string }{
		{"approve", "succeeded", "shipped v1 approved"},
		// a skipped gate's approval is "": the template keeps its space
		{"skip", "succeeded", "shipped v1 "},
		{"reject", "failed", ""},
	} {
		t.Run(tc.onTimeout, func(t *testing.T) {
			src := strings.Replace(gateChain, "    output_var: approval\n", "    output_var: approval\n    timeout_hours: 2\n    on_timeout: "+tc.onTimeout+"\n", 1)
			dir, j, c := t.TempDir(), &memJournal{}, load(t, src)
			now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
			l := New(WithDir(dir))
			l.Now = func() time.Time { return now }
			first, _ := l.Run(context.Background(), Request{Chain: c, Journal: j})
			if first.Status != record.Paused || first.Deadline != "2026-01-01T12:00:00Z" {
				t.Fatalf("first %s deadline %q", first.Status, first.Deadline)
			}
			now = now.Add(90 * time.Minute)
			if early, _ := l.Run(context.Background(), Request{Chain: c, Journal: j, Resume: savedSteps(j)}); early.Status != record.Paused {
				t.Fatalf("before the deadline: %s", early.Status)
			}
			now = now.Add(time.Hour)
			res, _ := l.Run(context.Background(), Request{Chain: c, Resume: savedSteps(j)})
			if string(res.Status) != tc.status || tc.out != "" && res.Output != tc.out {
				t.Fatalf("after the deadline: %s %#v %s", res.Status, res.Output, res.Error)
			}
		})
	}
}
