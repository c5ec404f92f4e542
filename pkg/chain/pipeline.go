package chain

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// pipelineEntry is one chain of an OCC pipeline file (`chains:`): it runs
// chain with inputs once the entries it depends on are done, and its
// output is known by its id, as {id}.
type pipelineEntry struct {
	ID        string            `yaml:"id"`
	Chain     string            `yaml:"chain"`
	Label     string            `yaml:"label"`
	DependsOn []string          `yaml:"depends_on"`
	Condition string            `yaml:"condition"`
	Inputs    map[string]string `yaml:"inputs"`
	// SummarizeOutput is OCC's summarize_output: true, or a number of
	// characters (see Step.PipedOutput).
	SummarizeOutput any `yaml:"summarize_output"`
}

// decodePipeline reads an OCC pipeline's `chains:` as the steps they are:
// chain steps, each with its inputs as with and its id as its output_var.
// Everything a chain step has then holds: the callees and their inputs
// are checked before anything runs, dependencies order them, and the
// pipeline's output names one of them.
func decodePipeline(d *yamlpos.Diags, v *yaml.Node) []*Step {
	var out []*Step
	eachItem(d, v, "chains must be a list of {id, chain, inputs, depends_on}", "a pipeline's chain must be a mapping with id and chain", func(_ int, n *yaml.Node) {
		var e pipelineEntry
		pos := map[string]Pos{}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, "chains: "), &e, pos, yamlpos.WalkOpts{Prefix: "chains" + idSuffix(n) + ": "}, nil)
		s := &Step{Pos: yamlpos.Of(n), FieldPos: map[string]Pos{"type": yamlpos.Of(n)}}
		s.Type, s.piped = string(KindChain), true
		s.ID, s.Label, s.DependsOn, s.Condition, s.OutputVar = e.ID, e.Label, e.DependsOn, e.Condition, e.ID
		Own[CallFields](s).Chain, Own[CallFields](s).With = e.Chain, e.Inputs
		s.pipeSummary = decodePipeSummary(d, e.SummarizeOutput, pos["summarize_output"], s.ID)
		for k, p := range pos {
			switch k {
			case "inputs":
				s.FieldPos["with"] = p
			case "id":
				s.FieldPos[k], s.FieldPos["output_var"] = p, p
			case "summarize_output":
				// the entry's, not a chain step's field
			default:
				s.FieldPos[k] = p
			}
		}
		out = append(out, s)
	})
	return out
}

// pipeSummary is what an OCC pipeline entry passes on of its chain's
// output: set when the entry writes summarize_output, with a model's
// summary (true) or the first limit characters (a number).
type pipeSummary struct {
	set       bool
	summarize bool
	limit     int
}

// OCC's pipeline thresholds: an output of at most pipeQuiet characters
// is passed on as it is; summarize_output: true summarizes one over
// PipeSummaryOver (and cuts it there when the summary fails); without
// summarize_output, one over PipeAutoLimit is cut there.
const (
	pipeQuiet       = 500
	PipeSummaryOver = 5000
	PipeAutoLimit   = 100000
)

// PipeSummaryPrompt is OCC's question for summarize_output: true; the
// chain's output follows it.
const PipeSummaryPrompt = "Summarize concisely, preserving key technical details, decisions, and data:\n\n"

// PipeSummaryLocals is the name the summary's prompt reads the chain's
// output by.
var PipeSummaryLocals = []string{"chain_output"}

func decodePipeSummary(d *yamlpos.Diags, v any, at Pos, id string) pipeSummary {
	switch x := v.(type) {
	case nil:
		return pipeSummary{}
	case bool:
		return pipeSummary{set: x, summarize: x}
	case int:
		if x > 0 {
			return pipeSummary{set: true, limit: x}
		}
	}
	d.Errorf(at, "chains: %s: summarize_output is true or a number of characters (more than 0), not %v", id, v)
	return pipeSummary{}
}

// PipedOutput says what an OCC pipeline entry passes on of its chain's
// output of n characters (OCC's pipeline executor): a model's summary
// (summarize), the first cut characters and note (a line saying so), or,
// when cut is 0, the output as it is.
func (s *Step) PipedOutput(n int) (summarize bool, cut int, note string) {
	p := s.pipeSummary
	switch {
	case !s.piped:
	case p.summarize && n > pipeQuiet && n > PipeSummaryOver:
		return true, PipeSummaryOver, "[truncated — summarization failed]"
	case p.set && !p.summarize && n > pipeQuiet && n > p.limit:
		return false, p.limit, fmt.Sprintf("[truncated from %d chars]", n)
	case !p.set && n > PipeAutoLimit:
		return false, PipeAutoLimit, fmt.Sprintf("[auto-truncated from %d chars]", n)
	}
	return false, 0, ""
}
