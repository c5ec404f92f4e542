package run

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A failed task of any kind is branched on by a branch that names the
// failure; a default branch still never takes a failure.
func TestFailedTaskOfAnyKindCanBeBranchedOn(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Status: 400})
	defer s.Close()
	for kind, task := range map[string]string{
		"agent":     "{kind: agent, model: openai/m, prompt: hi, retry: 1}",
		"transform": "{kind: transform, expr: 'int(\"x\")'}",
		"http":      "{kind: http, url: 'http://127.0.0.1:1/x', timeout_ms: 2000}",
		"cli":       "{kind: cli, run: 'exit 3'}",
	} {
		src := `
version: "1"
workflows:
  w:
    initialState: a
    states:
      a:
        task: ` + task + `
        transition:
          branches:
            - {operator: equals, when: failed, goto: broken}
            - {operator: default, goto: fine}
      broken: {terminal: true}
      fine: {terminal: true}
`
		res := runChain(t, src, nil, WithModels(registryFor(s, nil)))
		if res.Status != record.Succeeded || res.State != "broken" {
			t.Errorf("%s: status %s state %s error %s", kind, res.Status, res.State, res.Error)
		}
	}
}

// condition_key with an answer that names no keyword takes the default
// branch instead of failing.
func TestConditionKeyUnmatchedTakesTheDefaultBranch(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "something else entirely"})
	defer s.Close()
	res := runChain(t, `
version: "1"
workflows:
  w:
    initialState: route
    states:
      route:
        task: {kind: agent, model: openai/m, prompt: classify, condition_key: [billing, tech]}
        transition:
          branches:
            - {operator: equals, when: billing, goto: billing}
            - {operator: equals, when: tech, goto: tech}
            - {operator: default, goto: general}
      billing: {terminal: true}
      tech: {terminal: true}
      general: {terminal: true}
`, nil, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded || res.State != "general" || s.Count() != 1 {
		t.Fatalf("status %s state %s requests %d error %s", res.Status, res.State, s.Count(), res.Error)
	}
}
