package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A step the budget refuses fails the run, but the calls in flight were
// admitted within the budget: they answer and their answers are kept.
func TestBudgetRefusalKeepsTheCallsInFlight(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "paid for", Delay: 200 * time.Millisecond})
	defer s.Close()
	var steps strings.Builder
	for _, id := range []string{"q0", "q1", "q2", "q3", "q4", "q5"} {
		steps.WriteString("  - {id: " + id + ", model: openai/m, prompt: " + id + ", output_var: " + id + "}\n")
	}
	res := runChain(t, "name: t\nbudget: {max_llm_calls: 2}\nsteps:\n"+steps.String(), nil, WithModels(registryFor(s, nil)), WithParallel(6))
	if res.Status != record.Failed || !strings.Contains(res.Error, "budget is spent") {
		t.Fatalf("status %s error %s", res.Status, res.Error)
	}
	answered := 0
	for _, sr := range res.Steps {
		if sr.Status == record.StepSucceeded {
			answered++
		} else if strings.Contains(sr.Error, "cancelled") {
			t.Errorf("step %s: %s", sr.ID, sr.Error)
		}
	}
	if s.Count() != 2 || answered != 2 || res.Usage.LLMCalls != 2 {
		t.Errorf("%d calls sent, %d answers kept, llm_calls %d; want 2, 2, 2", s.Count(), answered, res.Usage.LLMCalls)
	}
}

// The same inside a loop; and a token budget whose room is held by a
// call in flight makes the next item wait instead of failing.
func TestBudgetReservationWaitsForRoom(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok", Delay: 50 * time.Millisecond})
	defer s.Close()
	res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil)), WithParallel(4)).Run(context.Background(), Request{Chain: load(t, `
name: t
steps:
  - {id: list, type: transform, expr: '["a","b","c","d"]', output_var: list}
  - {id: ask, depends_on: [list], for_each: "{list}", model: openai/m, prompt: "say {item}", output_var: out}
output: out
`), MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || s.Count() != 4 {
		t.Fatalf("status %s, %d requests, error %s", res.Status, s.Count(), res.Error)
	}
}
