package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A fallback model whose provider has no key is skipped with a warning:
// one key is enough to run a step.
func TestFallbackWithoutKeyIsSkippedWithAWarning(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "fine"})
	defer s.Close()
	res := runChain(t, `
name: t
steps:
  - {id: ask, model: anthropic/claude-x, fallback_models: [openai/gpt-y, ollama/z], prompt: hi, output_var: a}
output: a
`, nil, WithModels(registryFor(s, map[string]string{"OPENAI_API_KEY": ""})))
	if res.Status != record.Succeeded || res.Output != "fine" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "OPENAI_API_KEY") || !strings.Contains(res.Warnings[0], "skipped") {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

// CheckModels (validate) names every missing key at once, the primary's
// and the fallbacks'.
func TestCheckModelsReportsEveryMissingKey(t *testing.T) {
	s := llmtest.New()
	defer s.Close()
	l := New(WithDir(t.TempDir()), WithModels(registryFor(s, map[string]string{"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""})))
	errs := l.CheckModels(load(t, `
name: t
steps:
  - {id: ask, model: anthropic/claude-x, fallback_models: [openai/gpt-y], prompt: hi}
`))
	var all []string
	for _, e := range errs {
		all = append(all, e.Error())
	}
	joined := strings.Join(all, "\n")
	if len(errs) != 2 || !strings.Contains(joined, "ANTHROPIC_API_KEY") || !strings.Contains(joined, "OPENAI_API_KEY") {
		t.Errorf("errors = %q", all)
	}
}
