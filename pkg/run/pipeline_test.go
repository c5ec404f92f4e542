package run

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// occChains are the chains an OCC pipeline of these tests calls.
func occChains(t *testing.T) ChainResolver {
	chains := map[string]*chain.Chain{
		"research": load(t, "name: research\ninputs: [topic]\nsteps:\n  - {id: r, type: transform, operation: template, template_str: 'facts on {input.topic}', output_var: facts}\noutput: facts\n"),
		"write":    load(t, "name: write\ninputs: [topic, {name: notes, optional: true}]\nsteps:\n  - {id: w, type: transform, operation: template, template_str: 'article on {input.topic} from {input.notes}', output_var: text}\noutput: text\n"),
	}
	return func(name, _ string) (*chain.Chain, error) {
		if c := chains[name]; c != nil {
			return c, nil
		}
		return nil, fmt.Errorf("no chain %s", name)
	}
}

const occPipeline = `
name: research-to-content
inputs:
  - name: topic
chains:
  - id: research
    chain: research
    label: "Deep research phase"
    inputs:
      topic: "{input.topic}"
  - id: content
    chain: write
    depends_on: [research]
    condition: '{research} != ""'
    inputs:
      topic: "{input.topic}"
      notes: "{research}"
output: content
`

// TestOCCPipelineRuns: a pipeline's chains run in dependency order, each
// one's output given to the next as {id}; the pipeline's output names one.
func TestOCCPipelineRuns(t *testing.T) {
	res, err := New(WithDir(t.TempDir()), WithChains(occChains(t))).Run(context.Background(), Request{Chain: load(t, occPipeline), Inputs: map[string]string{"topic": "go"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.Output != "article on go from facts on go" {
		t.Errorf("status %s output %q error %s", res.Status, res.Output, res.Error)
	}
}

// TestOCCPipelineCallsAreChecked: a pipeline that calls a chain without
// an input it requires is refused before anything runs, naming the input
// (OCC's startup-launch, through startup-pitch, calls deep-researcher
// without its topic).
func TestOCCPipelineCallsAreChecked(t *testing.T) {
	bad := strings.Replace(occPipeline, `      topic: "{input.topic}"
  - id: content`, `      subject: "{input.topic}"
  - id: content`, 1)
	err := CheckCalls(load(t, bad), Resolvers{Chains: occChains(t)})
	if err == nil || !strings.Contains(err.Error(), `test.yaml:7:5: step "research":`) || !strings.Contains(err.Error(), `missing required input "topic"`) {
		t.Errorf("got %v", err)
	}
}

// TestOCCPipelineIDsAndMissingInputs: a pipeline's chain ids may be
// written as OCC writes them ("static-analysis": its output is known by
// it, and no {reference} reads it, in OCC as here), and an input the
// pipeline does not declare, and the run does not give, is passed as "" (OCC mcp-server/src/
// pipeline-executor.ts, resolveInputMapping; the pipeline of OCC's
// README, "Pipelines").
func TestOCCPipelineIDsAndMissingInputs(t *testing.T) {
	const src = `
name: review
chains:
  - id: static-analysis
    chain: research
    inputs: { topic: "{input.repo_path}" }
  - id: final-report
    chain: write
    depends_on: [static-analysis]
    inputs: { topic: "[{input.repo_path}]", notes: "{static-analysis}" }
output: final-report
`
	res, err := New(WithDir(t.TempDir()), WithChains(occChains(t))).Run(context.Background(), Request{Chain: load(t, src)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.Output != "article on [] from {static-analysis}" {
		t.Errorf("status %s output %q error %s", res.Status, res.Output, res.Error)
	}
}
