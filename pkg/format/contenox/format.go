package contenox

import (
	"encoding/json"

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
	Names:     taskChainName,
	JSONChain: isTaskChainJSON,
}

// taskChainName is a task chain's name, its id, read without validating
// the file: none unless it holds tasks too.
func taskChainName(data []byte) []string {
	var head struct {
		ID    string `yaml:"id"`
		Tasks any    `yaml:"tasks"`
	}
	if yaml.Load(data, &head) != nil || head.ID == "" || head.Tasks == nil {
		return nil
	}
	return []string{head.ID}
}

// isTaskChainJSON reports whether a JSON file is a task chain: an object
// with tasks, of any value.
func isTaskChainJSON(data []byte) bool {
	var head struct {
		Tasks json.RawMessage `json:"tasks"`
	}
	return json.Unmarshal(data, &head) == nil && head.Tasks != nil
}
