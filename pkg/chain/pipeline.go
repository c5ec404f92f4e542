package chain

import (
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
}

// decodePipeline reads an OCC pipeline's `chains:` as the steps they are:
// chain steps, each with its inputs as with and its id as its output_var.
// Everything a chain step has then holds: the callees and their inputs
// are checked before anything runs, dependencies order them, and the
// pipeline's output names one of them.
func decodePipeline(d *diags, v *yaml.Node) []*Step {
	var out []*Step
	eachItem(d, v, "chains must be a list of {id, chain, inputs, depends_on}", "a pipeline's chain must be a mapping with id and chain", func(_ int, n *yaml.Node) {
		var e pipelineEntry
		pos := map[string]Pos{}
		walk(d, mappingPairs(d, n, "chains: "), &e, pos, walkOpts{prefix: "chains" + idSuffix(n) + ": "}, nil)
		s := &Step{Pos: posOf(n), FieldPos: map[string]Pos{"type": posOf(n)}}
		s.Type, s.piped = string(KindChain), true
		s.ID, s.Label, s.DependsOn, s.Condition, s.OutputVar = e.ID, e.Label, e.DependsOn, e.Condition, e.ID
		s.Chain, s.With = e.Chain, e.Inputs
		for k, p := range pos {
			switch k {
			case "inputs":
				s.FieldPos["with"] = p
			case "id":
				s.FieldPos[k], s.FieldPos["output_var"] = p, p
			default:
				s.FieldPos[k] = p
			}
		}
		out = append(out, s)
	})
	return out
}
