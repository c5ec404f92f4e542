package run

import (
	"fmt"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A called chain's model use is counted in the caller's result: on its
// chain step and in the run's usage.
func TestCalledChainUsageIsCounted(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	child := load(t, `
name: child
steps:
  - {id: one, model: openai/m, prompt: first, output_var: a}
  - {id: two, model: openai/m, prompt: second, depends_on: [one], output_var: b}
output: b
`)
	resolve := func(name, _ string) (*chain.Chain, error) {
		if name == "child" {
			return child, nil
		}
		return nil, fmt.Errorf("no chain named %q", name)
	}
	res := runChain(t, `
name: parent
steps:
  - {id: ask, model: openai/m, prompt: hi}
  - {id: call, type: chain, chain: child, depends_on: [ask]}
`, nil, WithChains(resolve), WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded {
		t.Fatalf("status %s error %s", res.Status, res.Error)
	}
	if call := step(t, res, "call"); call.Usage == nil || call.Usage.LLMCalls != 2 {
		t.Errorf("call usage = %+v", call.Usage)
	}
	if res.Usage.LLMCalls != 3 || s.Count() != 3 {
		t.Errorf("run usage %+v, %d requests", res.Usage, s.Count())
	}
}
