package occ

import (
	"github.com/chainrun/chainrun/pkg/chain"
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
	// characters (see chain.Step.PipedOutput).
	SummarizeOutput any `yaml:"summarize_output"`
}

// decodePipeline reads an OCC pipeline's `chains:` as the steps they are:
// chain steps, each with its inputs as with and its id as its output_var.
// Everything a chain step has then holds: the callees and their inputs
// are checked before anything runs, dependencies order them, and the
// pipeline's output names one of them.
func decodePipeline(d *yamlpos.Diags, v *yaml.Node) []*chain.Step {
	var out []*chain.Step
	yamlpos.EachItem(d, v, "chains must be a list of {id, chain, inputs, depends_on}", "a pipeline's chain must be a mapping with id and chain", func(_ int, n *yaml.Node) {
		var e pipelineEntry
		pos := map[string]chain.Pos{}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, "chains: "), &e, pos, yamlpos.WalkOpts{Prefix: "chains" + yamlpos.IDSuffix(n) + ": "}, nil)
		s := &chain.Step{Pos: yamlpos.Of(n), FieldPos: map[string]chain.Pos{"type": yamlpos.Of(n)}}
		s.Type = string(chain.KindChain)
		s.ID, s.Label, s.DependsOn, s.Condition, s.OutputVar = e.ID, e.Label, e.DependsOn, e.Condition, e.ID
		chain.Own[chain.CallFields](s).Chain, chain.Own[chain.CallFields](s).With = e.Chain, e.Inputs
		s.Pipe(decodePipeSummary(d, e.SummarizeOutput, pos["summarize_output"], s.ID))
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

func decodePipeSummary(d *yamlpos.Diags, v any, at chain.Pos, id string) chain.PipeSummary {
	switch x := v.(type) {
	case nil:
		return chain.PipeSummary{}
	case bool:
		return chain.PipeSummary{Set: x, Summarize: x}
	case int:
		if x > 0 {
			return chain.PipeSummary{Set: true, Limit: x}
		}
	}
	d.Errorf(at, "chains: %s: summarize_output is true or a number of characters (more than 0), not %v", id, v)
	return chain.PipeSummary{}
}
