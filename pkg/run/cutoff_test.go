package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// TestAnAnswerCutAtMaxTokensFailsTheStep: an answer cut at max_tokens, in
// either wire format, whole or streamed, is no answer for a step nothing
// branches on: the step fails saying so, with the cap and what to raise,
// its finish reason length, and the next run asks again.
func TestAnAnswerCutAtMaxTokensFailsTheStep(t *testing.T) {
	tests := []struct {
		name, step string
		reply      llmtest.Reply
		want       string
	}{
		{"openai with a cap", "{id: ask, model: openai/gpt-x, max_tokens: 37, prompt: 'list every prime', cache: true, output_var: a}",
			llmtest.Reply{Text: "2, 3, 5, 7, 11", Finish: "length"}, "cut off at max_tokens 37"},
		{"anthropic at the default cap", "{id: ask, model: anthropic/claude-x, prompt: 'write an essay', cache: true, output_var: a}",
			llmtest.Reply{Text: "Once upon", Finish: "max_tokens"}, "cut off at max_tokens 4096"},
		{"anthropic context window", "{id: ask, model: anthropic/claude-x, max_tokens: 900, prompt: 'go on', cache: true, output_var: a}",
			llmtest.Reply{Text: "and then", Finish: "model_context_window_exceeded"}, "cut off at max_tokens 900"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(tt.reply)
			defer s.Close()
			store := cache.Open(t.TempDir())
			src := "name: t\nsteps:\n  - " + tt.step + "\n  - {id: after, type: transform, depends_on: [ask], expr: 'a + \"!\"', output_var: b}\noutput: b\n"
			for run := 1; run <= 2; run++ {
				res := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithCache(store, true))
				sr := step(t, res, "ask")
				if res.Status != record.Failed || sr.Status != record.StepFailed || sr.FinishReason != "length" ||
					!strings.Contains(sr.Error, tt.want) || !strings.Contains(sr.Error, "raise max_tokens") {
					t.Fatalf("run %d: %s %s finish %q error %q", run, res.Status, sr.Status, sr.FinishReason, sr.Error)
				}
				if a := step(t, res, "after"); a.Status == record.StepSucceeded {
					t.Fatalf("run %d: the step after a cut answer ran", run)
				}
			}
			if s.Count() != 2 {
				t.Errorf("%d requests in two runs: a cut answer was asked again of the same model, or served from the cache", s.Count())
			}
		})
	}
}

// TestACutAnswerGoesToTheFallbackModel: the model that was cut is not
// asked again (it would be cut again); the next fallback is, and its
// whole answer is the step's.
func TestACutAnswerGoesToTheFallbackModel(t *testing.T) {
	counts := map[string]int{}
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		model := r.Body["model"].(string)
		counts[model]++
		if model == "wordy" {
			return llmtest.Reply{Text: "Well, to begin with", Finish: "length"}
		}
		return llmtest.Reply{Text: "42"}
	})
	defer s.Close()
	res := runChain(t, "name: t\nsteps:\n  - {id: q, model: openai/wordy, fallback_models: [anthropic/terse], retry: 3, max_tokens: 20, prompt: 'answer', output_var: q}\noutput: q\n",
		nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.Output != "42" || counts["wordy"] != 1 || counts["terse"] != 1 {
		t.Fatalf("%s %v requests %v: %s", res.Status, res.Output, counts, res.Error)
	}
}

// TestACutAnswerIsAResultOnlyForABranchThatTakesIt: a workflow task whose
// branches compare its finish reason with one that takes length receives
// length to branch on; when only a default branch would take it, the cut
// answer is the task's failure, which on_failure or a branch naming failed
// takes, and otherwise fails the run.
func TestACutAnswerIsAResultOnlyForABranchThatTakesIt(t *testing.T) {
	tests := []struct {
		name, branches  string
		status          record.Status
		state, errorHas string
	}{
		{"not_equals takes it", "- {operator: not_equals, when: stop, goto: shorter}\n            - {operator: default, goto: done}", record.Succeeded, "shorter", ""},
		{"starts_with takes it", "- {operator: starts_with, when: len, goto: shorter}\n            - {operator: default, goto: done}", record.Succeeded, "shorter", ""},
		{"only default would", "- {operator: equals, when: stop, goto: done}\n            - {operator: default, goto: shorter}", record.Failed, "", "cut off at max_tokens 64"},
		{"a branch naming failed", "- {operator: equals, when: failed, goto: shorter}\n            - {operator: default, goto: done}", record.Succeeded, "shorter", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(llmtest.Reply{Text: "half a", Finish: "length"})
			defer s.Close()
			src := wf(`    states:
      a:
        task: {kind: agent, model: openai/m, max_tokens: 64, prompt: 'Write a lot'}
        transition:
          branches:
            ` + tt.branches + `
      done: {terminal: true}
      shorter: {terminal: true}
`)
			res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
			if res.Status != tt.status || res.State != tt.state && tt.state != "" || !strings.Contains(res.Error, tt.errorHas) {
				t.Fatalf("%s at %q: %s", res.Status, res.State, res.Error)
			}
		})
	}
}

// TestAContenoxChatCutAtMaxTokensIsItsAnswer: a chat_completion task's
// result is executed or tool_call, never the finish reason; a cut answer
// is the task's answer, as contenox takes it
// (contenox/contenox@2f653670f782 internal/kernel/taskengine/
// finishreason_test.go TestUnit_FinishReason_TruncationSurfacesOnCapturedStep;
// reference 003 lists length among chat_completion's results), and the
// run's warnings say it was cut.
func TestAContenoxChatCutAtMaxTokensIsItsAnswer(t *testing.T) {
	src := `{"id":"r","tasks":[
 {"id":"chat","handler":"chat_completion","transition":{"branches":[{"operator":"default","goto":"end"}]}}]}`
	l, err := loader.Parse("r.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New(llmtest.Reply{Text: "the first", Finish: "length"})
	defer s.Close()
	res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil)), WithDefaultModel("openai/m")).Run(context.Background(),
		Request{Chain: l.Chain, Inputs: map[string]string{"input": "tell me everything"}})
	if err != nil || res.Status != record.Succeeded || res.Output != "the first" || res.Steps[0].FinishReason != "length" || len(res.Warnings) == 0 {
		t.Fatalf("%v %s %v %v: %s", err, res.Status, res.Output, res.Warnings, res.Error)
	}
}

// TestACutAnswerFailsEveryModelCallNothingBranchesOn: an OCC merge's
// summary, a workflow transition's agent executor and the model deciding
// a workflow's decision point each fail on an answer cut at max_tokens,
// naming the cut, rather than passing part of an answer on.
func TestACutAnswerFailsEveryModelCallNothingBranchesOn(t *testing.T) {
	tests := []struct {
		name, src, agentModel string
	}{
		{"merge summary", "name: t\nsteps:\n  - {id: a, type: transform, operation: template, template_str: one, output_var: a}\n  - {id: m, type: merge, depends_on: [a], inputs: [a], strategy: llm_summarize, model: openai/m, max_tokens: 12, prompt: 'Join {a}', output_var: out}\noutput: out\n", ""},
		{"transition executor", wf(`    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: agent, model: openai/m, max_tokens: 12, prompt: 'Write it all'}
      b: {terminal: true}
`), ""},
		{"deciding model", wf(`    states:
      a:
        goal: Pick
        transitions:
          left: {target: b, actor: agent}
          right: {target: b, actor: agent}
      b: {terminal: true}
`), "openai/m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(llmtest.Reply{Text: "left and then", Finish: "length"})
			defer s.Close()
			res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil))).Run(context.Background(),
				Request{Chain: load(t, tt.src), AgentModel: tt.agentModel})
			if err != nil || res.Status == record.Succeeded || !strings.Contains(res.Error, "cut off at max_tokens") {
				t.Fatalf("%v %s %s: %s", err, res.Status, res.State, res.Error)
			}
		})
	}
}
