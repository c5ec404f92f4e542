package contenox

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// contenox's API runs a task chain posted with its input as one request
// body, {input, inputType, chain} (POST /tasks; contenox/runtime's
// README.md and docs/api-reference.md show such bodies from 2025-08). A
// file holding one is read as its chain, the body's input the default of
// the chain's input, with a warning saying so.

// taskRequestChain is the chain of a contenox request body, nil when
// root is no such body.
func taskRequestChain(root *yaml.Node) *yaml.Node {
	if yamlpos.KeyNode(root, "steps") != nil || yamlpos.KeyNode(root, "tasks") != nil {
		return nil
	}
	c := yamlpos.Deref(yamlpos.ValueOf(root, "chain"))
	if c == nil || c.Kind != yaml.MappingNode || !isTaskChain(c) {
		return nil
	}
	return c
}

// decodeTaskRequest reads a request body's chain and input. Its input
// is text (inputType string, or none); another inputType (chat_history,
// openai_chat, json, …) is refused, as chainrun gives a task chain text.
func decodeTaskRequest(d *yamlpos.Diags, root, c *yaml.Node) []*chain.Chain {
	yamlpos.CheckKeys(d, root, "request body: ", []string{"input", "inputType", "chain"})
	chains := decodeTaskChain(d, c)
	if len(chains) == 0 {
		return nil
	}
	at := yamlpos.Of(yamlpos.KeyNode(root, "chain"))
	if t := yamlpos.ValueOf(root, "inputType"); t != nil && !strings.EqualFold(t.Value, "string") {
		d.Errorf(yamlpos.Of(t), "request body: inputType %q is not supported: chainrun gives a task chain its input as text (--input input=TEXT); a contenox %s input has no equal", t.Value, t.Value)
		return chains
	}
	in := yamlpos.Deref(yamlpos.ValueOf(root, "input"))
	if in == nil {
		d.Warnf(at, "a contenox request body (input, inputType, chain): its chain is read; give its input with --input input=TEXT")
		return chains
	}
	if in.Kind != yaml.ScalarNode {
		d.Errorf(yamlpos.Of(in), "request body: input must be text (inputType string)")
		return chains
	}
	props, _ := chains[0].Workflow.InputSchema["properties"].(map[string]any)
	if input, ok := props[InputVar].(map[string]any); ok {
		input["default"] = in.Value
	}
	d.Warnf(at, "a contenox request body (input, inputType, chain): its chain is read, and its input %q is the default of input (--input input=TEXT gives another)", interp.ClipText(in.Value, 60))
	return chains
}
