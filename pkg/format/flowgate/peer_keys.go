package flowgate

import (
	"fmt"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// flowgateReads are keys mcp-flowgate reads in a workflow, state,
// transition or executor (at commit 443aa7a) that chainrun does not
// apply, each with what mcp-flowgate does with it and what chainrun does
// instead: they are ignored like unknown keys, but said for what they
// are, never as keys mcp-flowgate ignores.
var flowgateReads = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"lightweight":           "audits such a transition as an interaction and lets a state holding it chain on by its deterministic transitions (runtime.rs, runtime_chain.rs); chainrun offers it as any other decision",
		"purpose":               "tags the transition's audit record with it (runtime.rs); chainrun's event log records the transition without it",
		"description":           "shows it with the transition's link (runtime_links.rs); chainrun's links show the title",
		"expects_contract_hash": "pins the contract hash of the capability the executor calls, checked by its validate (validate.rs); chainrun checks no contract hash",
	}
})

// ignored warns that key, which chainrun does not know, is ignored as
// the file's peer ignores it (or, for a key the peer reads, what the peer
// does with it that chainrun does not). A key close to one chainrun
// knows (meant) is most likely that one misspelt, which the warning says
// loudest, as what the author meant is then not read at all, and which
// a refused file lists after its errors.
func ignored(d *yamlpos.Diags, at yamlpos.Pos, prefix, key, meant string) {
	if isRuntimeFlag(key) {
		return // refused: refuseRuntimeFlags
	}
	x := yamlpos.Diagnostic{File: d.File, Pos: at, Warning: true,
		Message: fmt.Sprintf("%sunknown field %q ignored, as %s ignores it", prefix, key, d.Peer)}
	if does, read := flowgateReads()[key]; read && d.Peer == peer {
		x.Message = fmt.Sprintf("%s%s: ignored: mcp-flowgate %s", prefix, key, does)
		meant = ""
	}
	if meant != "" {
		x.Message += fmt.Sprintf(": did you mean %s? As written, %s is not set here", meant, meant)
	}
	if meant == "" {
		d.Add(x)
		return
	}
	d.AddMisspelt(x)
}

// isRuntimeFlag reports whether key names one of mcp-flowgate's
// runtime flags: flowgate, or flowgate.<path>.
func isRuntimeFlag(key string) bool {
	return key == "flowgate" || strings.HasPrefix(key, "flowgate.")
}

// refuseRuntimeFlags refuses every key naming a runtime flag inside a
// workflow's definition n, at any depth, each at its line with its place
// (path), as mcp-flowgate refuses them: a workflow may not flip the
// gateway's flags (config.rs check_no_flowgate_keys, SPEC §8.4). An
// alias is not followed: what it names is checked where it is written.
func refuseRuntimeFlags(d *yamlpos.Diags, n *yaml.Node, prefix, path string) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for i, c := range n.Content {
			at := path
			if n.Kind == yaml.SequenceNode {
				at = fmt.Sprintf("%s[%d]", path, i)
			}
			refuseRuntimeFlags(d, c, prefix, at)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			at := k.Value
			if path != "" {
				at = path + "." + k.Value
			}
			if isRuntimeFlag(k.Value) {
				d.Errorf(yamlpos.Of(k), "%s%s: mcp-flowgate sets its runtime flags at the file's top level only and refuses them inside a workflow (CONFIG_FLAG_NOT_RUNTIME_MUTABLE)", prefix, at)
				continue
			}
			refuseRuntimeFlags(d, n.Content[i+1], prefix, at)
		}
	}
}
