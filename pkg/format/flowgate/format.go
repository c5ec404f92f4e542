package flowgate

import (
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// peer is mcp-flowgate's name in messages.
const peer = "mcp-flowgate"

// Format reads a `workflows:` file as mcp-flowgate serves it, and names
// an mcp-flowgate gateway configuration that holds no workflow as one.
// pkg/load lists it among the front-ends.
var Format = chain.Format{
	Name: "mcp-flowgate workflow file",
	Claims: func(root *yaml.Node) bool {
		return yamlpos.KeyNode(root, "workflows") != nil || len(gatewayOnly(root)) > 0
	},
	Decode: decode,
}

// decode reads a claimed file: its workflows in mcp-flowgate's dialect,
// or, for a gateway configuration without workflows, the error that
// names it.
func decode(d *yamlpos.Diags, root *yaml.Node) []*chain.Chain {
	if yamlpos.KeyNode(root, "workflows") == nil {
		keys := gatewayOnly(root)
		verb := "are"
		if len(keys) == 1 {
			verb = "is"
		}
		d.Errorf(yamlpos.Of(root), "an mcp-flowgate gateway configuration without workflows: its %s %s not supported: a gateway's settings configure what serves workflows, and chainrun runs a file's workflows: or steps:",
			`"`+strings.Join(keys, `", "`)+`"`, verb)
		return nil
	}
	// mcp-flowgate reads a workflow definition as JSON and never denies a
	// key it does not know (store.rs ConfigDefinitionStore keeps each
	// definition whole; model.rs has no deny_unknown_fields): inside one,
	// such a key is ignored with a warning, as it ignores it
	d.Peer = peer
	d.Ignore = func(at yamlpos.Pos, prefix, key, meant string) { ignored(d, at, prefix, key, meant) }
	writeEnabled := false
	chains := chain.DecodeWorkflowFile(d, root, chain.WorkflowDialect{
		LenientInputs:     true,
		UnregisteredKinds: true,
		FileKey: func(d *yamlpos.Diags, k, v *yaml.Node) bool {
			if k.Value == "flowgate" {
				writeEnabled = decodeSettings(d, k, v)
				return true
			}
			return fileKey(d, k, v)
		},
		CheckWorkflow: func(d *yamlpos.Diags, n *yaml.Node, prefix string) { refuseRuntimeFlags(d, n, prefix, "") },
		WorkflowKey:   workflowKey,
		StateKey:      stateKey,
	})
	for _, c := range chains {
		c.WriteEnabled = writeEnabled
	}
	return chains
}
