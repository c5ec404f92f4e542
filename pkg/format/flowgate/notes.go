package flowgate

import (
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// workflowKey reads a workflow's keys that earlier mcp-flowgate versions
// wrote, or that only mcp-flowgate's gateway acts on, each as a note:
// chainrun's own reading holds no such key.
func workflowKey(d *yamlpos.Diags, c *chain.Chain, k, _ *yaml.Node, prefix string) bool {
	switch k.Value {
	case "aliases":
		d.Warnf(yamlpos.Of(k), "%saliases: read as a note (an earlier mcp-flowgate key): the workflow is found by its own name, %q, not by its aliases", prefix, c.Name)
	case "examples":
		d.Warnf(yamlpos.Of(k), "%sexamples: read as a note (an earlier mcp-flowgate key): sample inputs for readers; none of them is run", prefix)
	case "enable_human_ask", "human_ask_cap":
		d.Warnf(yamlpos.Of(k), "%s%s: mcp-flowgate's ask_human self-loop is not added: chainrun pauses at every decision point, where a person can answer", prefix, k.Value)
	default:
		return false
	}
	return true
}

// stateKey reads a state's delegate:, which names an agent of an
// mcp-flowgate gateway, as a note.
func stateKey(d *yamlpos.Diags, _ *chain.State, k, v *yaml.Node, prefix string) bool {
	if k.Value != "delegate" {
		return false
	}
	d.Warnf(yamlpos.Of(k), "%sdelegate: %q names an agent of an mcp-flowgate gateway; chainrun's decisions are the caller's, a model's (agent.model) or a person's", prefix, v.Value)
	return true
}
