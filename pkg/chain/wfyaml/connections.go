package wfyaml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/wfpart"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// EachEntry calls fn with each entry of a file-level mapping of named
// mappings (scripts:, connections:), named as noun "NAME" in messages;
// what says what an entry holds.
func EachEntry(d *yamlpos.Diags, v *yaml.Node, noun, what string, fn func(key, n *yaml.Node, prefix string)) {
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%ss: map each %s's name to %s", noun, noun, what)
		return
	}
	for _, p := range yamlpos.MappingPairs(d, v, noun+"s: ") {
		n := yamlpos.Deref(p.Value)
		prefix := noun + " " + chain.Quote(p.Key.Value) + ": "
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "%sa %s is a mapping with %s", prefix, noun, what)
			continue
		}
		fn(p.Key, n, prefix)
	}
}

// DecodeConnections reads a workflow file's connections:.
func DecodeConnections(d *yamlpos.Diags, v *yaml.Node) map[string]*chain.Connection {
	out := map[string]*chain.Connection{}
	kinds := []string{chain.ConnREST, chain.ConnCLI, chain.ConnMCP}
	EachEntry(d, v, "connection", "its kind and settings", func(key *yaml.Node, n *yaml.Node, prefix string) {
		var k wfpart.ConnectionKeys
		pos := map[string]chain.Pos{}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, prefix), &k, pos, yamlpos.WalkOpts{Prefix: prefix}, nil)
		c := &chain.Connection{Name: key.Value, Kind: k.Kind, BaseURL: k.BaseURL, Headers: k.Headers,
			Args: k.Args, Env: k.Env, WorkingDirectory: k.WorkingDirectory, Pos: yamlpos.Of(key)}
		switch cmd := chain.NormalizeYAML(k.Command).(type) {
		case string:
			c.Command = cmd
		case []any:
			// [program, its first arguments...]
			var words []string
			for _, w := range cmd {
				words = append(words, fmt.Sprint(w))
			}
			if len(words) > 0 {
				c.Command, c.Args = words[0], append(words[1:], k.Args...)
			}
		}
		if c.Kind == "" {
			c.Kind = k.Type
		}
		if c.Kind == "" && (k.Transport != nil || k.URL != "") {
			c.Kind = chain.ConnMCP
		}
		if c.Kind == chain.ConnMCP {
			c.URL = k.URL
			mcpTransport(d, c, k.Transport, pos["transport"], prefix)
		}
		switch {
		case c.Kind == chain.ConnMCP && c.Command == "" && c.URL == "":
			d.Errorf(c.Pos, "%san mcp connection needs a command (a server spoken to over stdio) or a url (streamable HTTP)", prefix)
		case c.Kind == chain.ConnMCP && c.Command != "" && c.URL != "":
			d.Errorf(c.Pos, "%san mcp connection has a command or a url, not both", prefix)
		case c.Kind == chain.ConnREST && c.BaseURL == "":
			d.Errorf(c.Pos, "%sbaseUrl is required for a rest connection", prefix)
		case c.Kind == chain.ConnCLI && c.Command == "":
			d.Errorf(c.Pos, "%scommand is required for a cli connection", prefix)
		case c.Kind == "":
			d.Errorf(c.Pos, "%skind is required: %s", prefix, strings.Join(kinds, ", "))
		case !slices.Contains(kinds, c.Kind):
			d.Errorf(pos["kind"], "%sunknown kind %q%s; kinds are %s", prefix, c.Kind, spell.DidYouMean(c.Kind, kinds), strings.Join(kinds, ", "))
		default:
			out[c.Name] = c
		}
	})
	return out
}

// mcpTransport reads an mcp connection's transport: {kind, url} or
// {kind: stdio, command, args}, the form of mcp-flowgate's later files.
func mcpTransport(d *yamlpos.Diags, c *chain.Connection, t any, at chain.Pos, prefix string) {
	if t == nil {
		return
	}
	m, ok := chain.NormalizeYAML(t).(map[string]any)
	if !ok {
		d.Errorf(at, "%stransport must be a mapping: {kind: streamable_http, url} or {kind: stdio, command, args}", prefix)
		return
	}
	kind, _ := m["kind"].(string)
	switch kind {
	case "streamable_http", "http", "sse", "":
		if u, ok := m["url"].(string); ok && c.URL == "" {
			c.URL = u
		}
	case "stdio":
		switch cmd := m["command"].(type) {
		case string:
			c.Command = cmd
		case []any:
			for i, w := range cmd {
				if i == 0 {
					c.Command = fmt.Sprint(w)
				} else {
					c.Args = append(c.Args, fmt.Sprint(w))
				}
			}
		}
		if args, ok := m["args"].([]any); ok {
			for _, a := range args {
				c.Args = append(c.Args, fmt.Sprint(a))
			}
		}
	default:
		d.Errorf(at, "%stransport kind %q is not one of stdio, streamable_http", prefix, kind)
	}
}

// ParseConnections reads the connections: of a config file (where names
// the file in messages): the same kinds and keys as a chain file's.
func ParseConnections(where string, v any) (map[string]*chain.Connection, error) {
	if v == nil {
		return nil, nil
	}
	data, err := yaml.Marshal(map[string]any{"connections": v})
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		return nil, err
	}
	d := &yamlpos.Diags{File: where, Src: data}
	root := doc.Content[0]
	out := DecodeConnections(d, yamlpos.ValueOf(root, "connections"))
	if errs := d.Errs(); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Message
		}
		return nil, fmt.Errorf("%s: %s", where, strings.Join(msgs, "; "))
	}
	return out, nil
}
