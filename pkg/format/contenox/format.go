package contenox

import (
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// Format reads contenox's task chains, {id, tasks}, and contenox's
// request bodies, {input, inputType, chain}, into one workflow chain
// each. pkg/load lists it among the front-ends.
var Format = chain.Format{
	Name: "contenox task chain",
	Claims: func(root *yaml.Node) bool {
		// a workflows: file is chainrun's, whatever else it holds
		return yamlpos.KeyNode(root, "workflows") == nil && (isTaskChain(root) || taskRequestChain(root) != nil)
	},
	Decode: func(d *yamlpos.Diags, root *yaml.Node) []*chain.Chain {
		if c := taskRequestChain(root); c != nil {
			return decodeTaskRequest(d, root, c)
		}
		return decodeTaskChain(d, root)
	},
}
