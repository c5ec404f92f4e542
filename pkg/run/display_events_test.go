package run

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestEventsTellWhatTheDisplayShows holds the events a live display needs
// to show every step as the docs promise: a step ready while every
// --max-parallel slot is taken is told of (step.waiting) before it
// starts, and an agent step's step.started names the model it asks.
func TestEventsTellWhatTheDisplayShows(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "hi"})
	defer s.Close()
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
steps:
  - {id: a, type: cli, command: "true"}
  - {id: b, type: cli, command: "true"}
  - {id: ask, prompt: hello, fallback_models: [anthropic/other]}
`, nil, WithParallel(1), WithEvents(rec), WithModels(registryFor(s, nil)), WithDefaultModel("openai/first"))
	if res.Status != record.Succeeded {
		t.Fatalf("%s: %s", res.Status, res.Error)
	}
	var seen []string
	for _, e := range rec.Events() {
		switch e.Type {
		case event.StepWaiting:
			seen = append(seen, "wait "+e.Step+": "+e.Detail)
		case event.StepStarted:
			seen = append(seen, "start "+e.Step+" "+e.Model)
		}
	}
	// a takes the slot; b and ask wait for it, each told of before it
	// starts (a's own start may be told of before or after)
	at := func(s string) int { return slices.Index(seen, s) }
	waitB, waitAsk := at("wait b: waiting for a free slot (--max-parallel 1)"), at("wait ask: waiting for a free slot (--max-parallel 1)")
	startB, startAsk := at("start b "), at("start ask openai/first")
	if len(seen) != 5 || at("start a ") < 0 || waitB < 0 || waitAsk < 0 || startB < waitB || startAsk < waitAsk {
		t.Errorf("events: %q", seen)
	}
}
