package chain

import (
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// connectionsReader reads a file's connections: pkg/chain/wfyaml
// registers it, as it registers the reader of workflows: files.
var connectionsReader func(d *yamlpos.Diags, v *yaml.Node) map[string]*Connection

// RegisterConnectionsReader sets the reader of a file's connections:,
// a DAG chain's and a workflows: file's. Only pkg/chain/wfyaml calls it;
// a second registration panics.
func RegisterConnectionsReader(read func(d *yamlpos.Diags, v *yaml.Node) map[string]*Connection) {
	if connectionsReader != nil {
		panic("chain: a reader of connections: is registered twice")
	}
	connectionsReader = read
}

// decodeConnections reads a chain's connections: through the registered reader.
func decodeConnections(d *yamlpos.Diags, v *yaml.Node) map[string]*Connection {
	if connectionsReader == nil {
		d.Errorf(yamlpos.Of(v), "this program links no reader of connections: (pkg/chain/wfyaml)")
		return nil
	}
	return connectionsReader(d, v)
}

// connection finds the connection a step names, of the kind it needs,
// reporting a missing or mismatched one at the step's connection field.
// An mcp or rest connection that a file without connections: names, and
// the config does not declare, is left to the run, which refuses it
// before anything runs (run.Pending): such a file is written to be wired
// where it runs.
func (v *validator) connection(s *Step, kind string) *Connection {
	c := v.c.Connections[s.HTTP().Connection]
	if c != nil && c.Kind == kind {
		return c
	}
	if c == nil && kind != ConnCLI && !v.c.declaresConnections {
		return nil
	}
	var names []string
	for name, cn := range v.c.Connections {
		if cn.Kind == kind {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	switch {
	case c != nil:
		v.d.Errorf(s.At("connection"), "%s: connection %q is a %s connection; a %s step needs a %s one", s.Subject(), s.HTTP().Connection, c.Kind, s.Kind, kind)
	case len(names) == 0:
		v.d.Errorf(s.At("connection"), "%s: no %s connection is named %q: the file's connections: declares none", s.Subject(), kind, s.HTTP().Connection)
	default:
		v.d.Errorf(s.At("connection"), "%s: no %s connection is named %q%s; %s connections: %s", s.Subject(), kind, s.HTTP().Connection, didYouMean(s.HTTP().Connection, names), kind, strings.Join(names, ", "))
	}
	return nil
}

// withConfigured adds to a file's connections the config's it lacks.
func withConfigured(file, config map[string]*Connection) map[string]*Connection {
	if len(config) == 0 {
		return file
	}
	out := make(map[string]*Connection, len(file)+len(config))
	for name, c := range config {
		out[name] = c
	}
	for name, c := range file {
		out[name] = c
	}
	return out
}
