package flowgate

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
	"sync"
)

// mcp-flowgate's gateway configuration keys, and its include: and
// repos:, reach beyond one workflow file: this file names them.

// gatewayKeys are the top-level keys of an mcp-flowgate file that
// configure the gateway serving its workflows (its MCP connections,
// proxying, skills, lexicon, snippets, shared blackboard, capability
// registry, store, discovery): a runner has no use for them, so they are
// accepted with a warning that names each.
var gatewayKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"lexicon":      "the gateway's lexicon",
		"snippet":      "the gateway's snippets",
		"snippets":     "the gateway's snippets",
		"blackboard":   "the gateway's shared blackboard",
		"proxy":        "the gateway's tool proxying",
		"capabilities": "the gateway's capability registry",
		"store":        "the gateway's state store",
		"discovery":    "the gateway's discovery settings",
		"flowgate":     "the gateway's own settings",
	}
})

// gatewayOnly is the gateway keys (and connections, audit) of a file
// that holds no chain at all (no name, steps, chains or workflows): an
// mcp-flowgate gateway configuration, named as one instead of a chain
// missing its name and steps.
func gatewayOnly(root *yaml.Node) []string {
	var keys []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		switch {
		case k == "name" || k == "steps" || k == "chains":
			return nil
		case gatewayKeys()[k] != "" || k == "connections" || k == "audit":
			keys = append(keys, k)
		}
	}
	return keys
}

// otherFiles reads an mcp-flowgate file's include: (files merged into
// it) or repos: (repositories loaded with it): an empty list merges
// nothing, so it is accepted; chainrun reads one file, so any other is
// refused naming the key and what to do instead.
func otherFiles(d *yamlpos.Diags, k, v *yaml.Node) {
	v = yamlpos.Deref(v)
	if v.Tag == "!!null" || (v.Kind == yaml.SequenceNode && len(v.Content) == 0) {
		return
	}
	what := "include: merging other files into this one, as mcp-flowgate does, is not supported: chainrun reads one file; put those workflows in the chains directory (a workflow executor finds them there and beside this file) or copy their keys here"
	if k.Value == "repos" {
		what = "repos: loading other repositories' workflows with this file, as mcp-flowgate does, is not supported: point --chains-dir at their workflows, or copy them beside this file (a workflow executor finds them there)"
	}
	d.Errorf(yamlpos.Of(k), "%s", what)
}

// fileKey reads a top-level key of mcp-flowgate's that configures its
// gateway or merges other files (the file's flowgate: block aside):
// include: and repos:, overrides:, audit: and the gateway keys; false
// for any other key, which chainrun reads as its own.
func fileKey(d *yamlpos.Diags, k, v *yaml.Node) bool {
	switch k.Value {
	case "include", "repos":
		otherFiles(d, k, v)
		return true
	case "overrides":
		d.Warnf(yamlpos.Of(k), "overrides: ignored: it names the workflows of mcp-flowgate's repos: this file shadows, and chainrun loads no repos:")
		return true
	case "audit":
		// a gateway's setting a runner has no use for: said, never
		// dropped in silence
		d.Warnf(yamlpos.Of(k), "audit: mcp-flowgate's audit sink is ignored; every run keeps its own event log (events.jsonl)")
		return false
	}
	if why, ok := gatewayKeys()[k.Value]; ok {
		d.Warnf(yamlpos.Of(k), "%s: %s is ignored: %s", k.Value, why, "it configures an mcp-flowgate gateway, not a run")
		return true
	}
	return false
}
