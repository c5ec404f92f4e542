package run

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestCostPerRequestStepAndRun: every request's cost is on its llm.call
// event, a step's and the run's usage add them up (config prices over the
// list), and a model without a price is named, never counted as free.
func TestCostPerRequestStepAndRun(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "fine answer"} })
	defer s.Close()
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
steps:
  - {id: a, model: openai/gpt-5-mini, prompt: "one"}
  - {id: b, model: anthropic/claude-house-1, prompt: "two", depends_on: [a]}
  - {id: c, model: anthropic/claude-sonnet-4-6, prompt: "three", depends_on: [b]}
`, nil, WithModels(registryFor(s, nil)), WithEvents(rec),
		WithPrices(llm.NewPrices(map[string]llm.Price{"anthropic/claude-sonnet-4-6": {Input: 1000, Output: 2000}})))
	if res.Status != record.Succeeded {
		t.Fatal(res.Error)
	}
	costOf := func(u *record.Usage, p llm.Price) float64 {
		return p.Cost(llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens})
	}
	a, b, c := step(t, res, "a"), step(t, res, "b"), step(t, res, "c")
	wantA, wantC := costOf(a.Usage, llm.Price{Input: 0.25, Output: 2}), costOf(c.Usage, llm.Price{Input: 1000, Output: 2000})
	if wantA == 0 || math.Abs(a.Usage.CostUSD-wantA) > 1e-12 || len(a.Usage.Unpriced) != 0 {
		t.Errorf("a (list price): %+v, want cost %v", a.Usage, wantA)
	}
	if b.Usage.CostUSD != 0 || !slices.Equal(b.Usage.Unpriced, []string{"anthropic/claude-house-1"}) {
		t.Errorf("b (no price): %+v", b.Usage)
	}
	if math.Abs(c.Usage.CostUSD-wantC) > 1e-9 {
		t.Errorf("c (config price): %+v, want %v", c.Usage, wantC)
	}
	if math.Abs(res.Usage.CostUSD-(wantA+wantC)) > 1e-9 || !slices.Equal(res.Usage.Unpriced, []string{"anthropic/claude-house-1"}) {
		t.Errorf("run usage %+v", res.Usage)
	}
	var calls, finished, runEnd []event.Event
	for _, e := range rec.Events() {
		switch e.Type {
		case event.LLMCall:
			calls = append(calls, e)
		case event.StepFinished:
			finished = append(finished, e)
		case event.RunFinished:
			runEnd = append(runEnd, e)
		}
	}
	if len(calls) != 3 || calls[0].CostUSD == nil || *calls[0].CostUSD != a.Usage.CostUSD || calls[1].CostUSD != nil || calls[1].Unpriced[0] != "anthropic/claude-house-1" {
		t.Fatalf("llm.call events %+v", calls)
	}
	if calls[0].ResponseModel != "gpt-5-mini" || calls[0].FinishReason != llm.FinishStop || calls[2].ResponseModel != "claude-sonnet-4-6" {
		t.Errorf("what answered: %q %q / %q", calls[0].ResponseModel, calls[0].FinishReason, calls[2].ResponseModel)
	}
	if calls[0].Prompt != "" || calls[0].Answer != "" {
		t.Error("messages are on events only when captured")
	}
	if finished[2].CostUSD == nil || *finished[2].CostUSD != c.Usage.CostUSD || len(runEnd) != 1 || runEnd[0].CostUSD == nil || *runEnd[0].CostUSD != res.Usage.CostUSD {
		t.Errorf("step.finished and run.finished carry the cost: %+v %+v", finished[2], runEnd)
	}
}

// TestCapturedMessagesAreMasked: with capture on, a request's messages and
// answer are on its event, secret inputs masked as everywhere.
func TestCapturedMessagesAreMasked(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "echo " + r.LastUserMessage()} })
	defer s.Close()
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
inputs:
  - {name: token, secret: true}
steps:
  - {id: a, model: openai/gpt-5-mini, system: be brief, prompt: "use {input.token}"}
`, map[string]string{"token": "hunter2-very-secret"}, WithModels(registryFor(s, nil)), WithEvents(rec), WithCaptureContent(true))
	if res.Status != record.Succeeded {
		t.Fatal(res.Error)
	}
	for _, e := range rec.Events() {
		if e.Type != event.LLMCall {
			continue
		}
		if !strings.Contains(e.Prompt, `"role":"system"`) || !strings.Contains(e.Prompt, "use ***") || !strings.Contains(e.Answer, "echo use ***") {
			t.Errorf("captured %s / %s", e.Prompt, e.Answer)
		}
		if strings.Contains(e.Prompt+e.Answer, "hunter2") {
			t.Error("a secret input reached the event")
		}
		return
	}
	t.Fatal("no llm.call event")
}

// TestMaxCostStopsTheRun: with budget.max_cost_usd (or --max-cost, the
// smaller winning), the step whose request would pass it fails without
// sending it, the error naming the budget.
func TestMaxCostStopsTheRun(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: strings.Repeat("word", 50)} })
	defer s.Close()
	const src = `
name: t
budget: {max_cost_usd: 5}
steps:
  - {id: a, model: openai/pricey, prompt: "one"}
  - {id: b, model: openai/pricey, prompt: "two", depends_on: [a]}
  - {id: c, model: openai/pricey, prompt: "three", depends_on: [b]}
  - {id: d, model: openai/pricey, prompt: "four", depends_on: [c]}
`
	// each answer is 50 output tokens at $20,000 per million: $1 a
	// request (this server answers past the cap it is sent)
	prices := WithPrices(llm.NewPrices(map[string]llm.Price{"openai/pricey": {Input: 0, Output: 20_000}}))
	res, err := New(WithDir(t.TempDir()), withCatalog, WithModels(registryFor(s, nil)), prices).Run(t.Context(), Request{Chain: load(t, src), MaxCostUSD: 2.5})
	if err != nil {
		t.Fatal(err)
	}
	d := step(t, res, "d")
	if res.Status != record.Failed || d.Status != record.StepFailed || !strings.Contains(d.Error, "max_cost_usd $2.5 reached") {
		t.Fatalf("status %s, d: %+v", res.Status, d)
	}
	if s.Count() != 3 {
		t.Fatalf("%d requests sent", s.Count())
	}
	// the third could buy 25 tokens of answer with what was left
	if got := s.Requests()[2].Body["max_completion_tokens"]; got != 25.0 {
		t.Errorf("the third request's answer cap %v, want 25 (what $0.50 buys)", got)
	}
}
