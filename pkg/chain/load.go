package chain

import (
	"bytes"
	"fmt"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain/envfiles"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// Options change how strictly a chain is validated.
type Options struct {
	// LenientVariables restores reference 004's rule that a reference to a
	// name nothing produces stays literal text (a warning instead of an
	// error). Config: strict_variables: false.
	LenientVariables bool
	// Connections are the config's connections: a chain's steps reach
	// them by name when its file declares none of that name (the file's
	// win).
	Connections map[string]*Connection
}

// Loaded is a chain file after validation: its chains and any warnings.
// A DAG chain file holds one chain; a workflow file one per workflow.
type Loaded struct {
	// Chain is the file's first chain (its only one, unless the file
	// holds several workflows).
	Chain    *Chain
	Chains   []*Chain
	Warnings []Diagnostic
}

// Named returns the file's chain of that name, or nil.
func (l *Loaded) Named(name string) *Chain {
	for _, c := range l.Chains {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// LoadFile reads and validates one chain file in chainrun's own format
// or a format still read here; pkg/load's LoadFile reads every format.
func LoadFile(path string, opts Options) (*Loaded, error) {
	return LoadFileAs(path, opts, nil)
}

// LoadFileAs is LoadFile with the front-ends pkg/load passes.
func LoadFileAs(path string, opts Options, formats []Format) (*Loaded, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, &ValidationError{Diagnostics: []Diagnostic{{File: path, Message: "cannot read chain file: " + err.Error()}}}
	}
	return ParseAs(path, data, opts, formats)
}

// Parse decodes and validates chain text in chainrun's own format or a
// format still read here; pkg/load's Parse reads every format. file names
// it in messages.
func Parse(file string, data []byte, opts Options) (*Loaded, error) {
	return ParseAs(file, data, opts, nil)
}

// ParseAs decodes and validates chain text: a document one of formats
// claims is read by that front-end, any other as chainrun's own. Either
// way the chains are validated here, by the same rules.
func ParseAs(file string, data []byte, opts Options, formats []Format) (*Loaded, error) {
	d := &yamlpos.Diags{File: file, Src: data}
	chains := decodeFile(d, data, formats)
	// an unknown step kind or field does not stop validation: the file's
	// other findings are reported with it
	if len(chains) > 0 && d.Blocking() == d.SoftCount() {
		for _, c := range chains {
			c.File = file
			c.Source = data
			c.siblings = chains
			c.declaresConnections = len(c.Connections) > 0
			c.Connections = withConfigured(c.Connections, opts.Connections)
			if c.Workflow != nil {
				validateWorkflow(d, c, opts)
			} else {
				validate(d, c, opts)
			}
		}
		d.Sort()
	}
	if errs := d.Errs(); len(errs) > 0 {
		// a key ignored as the file's peer ignores it, close to one
		// chainrun knows, is likely why a required key is missing: said
		// after the errors, as a warning
		return nil, &ValidationError{Diagnostics: append(errs, d.Misspelled()...)}
	}
	return &Loaded{Chain: chains[0], Chains: chains, Warnings: d.Warnings()}, nil
}

// decodeFile turns YAML into the file's chains: one DAG chain, or the
// workflows of a `workflows:` file. It returns none when the document
// cannot be a chain file.
func decodeFile(d *yamlpos.Diags, data []byte, formats []Format) []*Chain {
	if len(bytes.TrimSpace(data)) == 0 {
		d.Errorf(Pos{Line: 1, Col: 1}, "the file is empty: a chain needs name and steps")
		return nil
	}
	if p, what, bad := yamlpos.BadText(data); bad {
		d.Errorf(p, "%s: a chain file is UTF-8 text", what)
		return nil
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		d.SyntaxError(err)
		return nil
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(root), "a chain file must be a mapping with name and steps")
		return nil
	}
	for _, f := range formats {
		if f.Claims(root) {
			return f.Decode(d, root)
		}
	}
	if yamlpos.KeyNode(root, "workflows") != nil {
		return DecodeWorkflowFile(d, root, WorkflowDialect{})
	}
	return []*Chain{decodeChain(d, root)}
}

// DAGFile reports whether chainrun's own readers read a document whose
// root is this mapping as a DAG chain (steps:, with what a front-end
// adds), not as a workflows: file: a front-end that extends the DAG chain
// claims only such a document (the front-ends listed before it, in
// pkg/load, claim theirs first: a task chain, a gateway configuration).
func DAGFile(root *yaml.Node) bool {
	return yamlpos.KeyNode(root, "workflows") == nil
}

// decodeChain turns a DAG chain's mapping into a Chain in chainrun's own
// format, recording positions and rejecting unknown fields.
func decodeChain(d *yamlpos.Diags, root *yaml.Node) *Chain { return DecodeChain(d, root, nil) }

// DecodeChain turns a DAG chain's mapping into a Chain, recording
// positions and rejecting unknown fields. keys, when not nil, is a
// front-end's reader of the top-level keys its format has besides
// chainrun's own: it reports whether it took the key (any other is
// unknown, with the closest of chainrun's keys).
func DecodeChain(d *yamlpos.Diags, root *yaml.Node, keys func(c *Chain, k, v *yaml.Node) bool) *Chain {
	c := &Chain{Pos: yamlpos.Of(root)}
	yamlpos.Walk(d, yamlpos.MappingPairs(d, root, ""), c, nil, yamlpos.WalkOpts{Extensions: true, Meant: &c.meant}, func(k, v *yaml.Node) bool {
		switch k.Value {
		case "name":
			if !yamlpos.DecodeValue(d, v, &c.Name, "name: ") {
				c.meant = append(c.meant, "name")
			}
			c.Pos = yamlpos.Of(v)
		case "output":
			yamlpos.DecodeValue(d, v, &c.Output, "output: ")
			c.OutputPos = yamlpos.Of(v)
		case "inputs":
			c.Inputs, c.inputsUnread = decodeInputs(d, v)
		case "budget":
			c.Budget = &Budget{}
			yamlpos.DecodeValue(d, v, c.Budget, "budget: ")
		case "steps":
			c.Steps = append(c.Steps, decodeSteps(d, v)...)
		case "tools":
			c.Tools = DecodeTools(d, v)
		case "connections":
			c.Connections = decodeConnections(d, v)
		case "dotenv":
			c.Dotenv = envfiles.Decode(d, v)
		case "handlers":
			c.Handlers = decodeHandlers(d, v)
		default:
			return keys != nil && keys(c, k, v)
		}
		return true
	})
	return c
}

// decodeInputs reads the inputs: list. A block of another shape, or an
// entry that is not an input, is reported without stopping the file's
// other checks; unread then says the references to inputs cannot be
// judged.
func decodeInputs(d *yamlpos.Diags, v *yaml.Node) (out []*Input, unread bool) {
	v = yamlpos.Deref(v)
	if v.Kind != yaml.SequenceNode {
		msg := "inputs must be a list of {name, description, optional, default, secret, enum}"
		if v.Kind == yaml.MappingNode && len(v.Content) > 0 {
			k := v.Content[0].Value
			msg += fmt.Sprintf(", as in inputs: [{name: %s}]", k)
		}
		d.SoftErrorf(yamlpos.Of(v), "%s", msg)
		return nil, true
	}
	for _, n := range v.Content {
		n = yamlpos.Deref(n)
		in := &Input{Pos: yamlpos.Of(n)}
		if n.Kind == yaml.ScalarNode {
			// `inputs: [service, env]` is shorthand for required inputs.
			in.Name = n.Value
			out = append(out, in)
			continue
		}
		if n.Kind != yaml.MappingNode {
			d.SoftErrorf(yamlpos.Of(n), "an input must be a mapping with a name")
			unread = true
			continue
		}
		structuredDefault(n)
		yamlpos.DecodeChecked(d, n, "input: ", yamlpos.KeysOf[Input](), in)
		out = append(out, in)
	}
	return out, unread
}

// structuredDefault lets an object, array or json input's default be
// written as YAML (default: {}, default: [a, b]): it reads as its JSON.
func structuredDefault(n *yaml.Node) {
	if t := yamlpos.ValueOf(n, "type"); t != nil && (t.Value == "object" || t.Value == "array" || t.Value == "json") {
		yamlpos.AsJSONText(yamlpos.ValueOf(n, "default"))
	}
}

// decodeSteps reads the steps: list, letting go of each step's nodes once
// it is decoded: the tree and the steps are not held whole together.
func decodeSteps(d *yamlpos.Diags, v *yaml.Node) []*Step {
	v = yamlpos.Deref(v)
	if v.Kind != yaml.SequenceNode {
		d.Errorf(yamlpos.Of(v), "steps must be a list of steps")
		return nil
	}
	out := make([]*Step, 0, len(v.Content))
	for i, n := range v.Content {
		n, v.Content[i] = yamlpos.Deref(n), nil
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "a step must be a mapping with an id")
			continue
		}
		s, ok := DecodeStep(d, n, "step"+yamlpos.IDSuffix(n)+": ")
		if !ok {
			continue
		}
		if _, known := kindOf(s.Type); !known {
			reportUnknownKind(d, s.At("type"), stepName(s), "type", s.Type, Kinds())
		}
		out = append(out, s)
	}
	return out
}

// maxChainFile bounds a chain file: text a person writes, held whole in
// memory while it loads.
const maxChainFile = 32 << 20

// ReadFile reads a chain file (or anything the catalog looks into): a
// regular file of at most maxChainFile bytes, opened without blocking, so
// that a FIFO or a device among the chains is refused at once instead of
// hanging every command that lists them.
func ReadFile(path string) ([]byte, error) { return fsutil.ReadRegular(path, maxChainFile) }
