package chain

import (
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// Script is one entry of a workflow file's scripts: library
// (mcp-flowgate's curated scripts): a body that script executors run by
// its subject. A body that starts with #! runs by its interpreter, any
// other with bash.
type Script struct {
	Subject string
	Verb    string
	Body    string
	// Hash is sha256:<hex> of the body as normalized (trailing newlines
	// made one), what FLOWGATE_SCRIPT_HASH tells the script.
	Hash string
	Pos  Pos
}

// Interpreter is the program the script runs with: its #! line's
// (through env, the program env finds), else bash.
func (s *Script) Interpreter() string {
	line, _, _ := strings.Cut(s.Body, "\n")
	if !strings.HasPrefix(line, "#!") {
		return "bash"
	}
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return "bash"
	}
	if strings.HasSuffix(fields[0], "/env") && len(fields) > 1 {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				return f
			}
		}
	}
	return fields[0]
}

// scriptKeys are the keys of one scripts: entry.
type scriptKeys struct {
	Verb        string `yaml:"verb" doc:"What the script does (build, test, deploy, format, lint, install, verify, run, inspect, search, fetch, audit)."`
	Lifecycle   string `yaml:"lifecycle" doc:"experimental, stable or deprecated (kept for readers)."`
	Source      string `yaml:"source" doc:"Where the script comes from (kept for readers)."`
	Body        string `yaml:"body" doc:"The script: #! names its interpreter, else bash runs it."`
	URI         string `yaml:"uri" doc:"Not supported: write the body inline."`
	Hash        string `yaml:"hash" doc:"sha256:<hex> the body must hash to (trailing newlines counted as one)."`
	Title       string `yaml:"title" doc:"A short name for readers."`
	Description string `yaml:"description" doc:"What the script does, for readers."`
}

// Connection is one entry of a workflow file's connections: (how an
// mcp-flowgate gateway reaches a service): a rest connection's base URL
// and headers, which http (rest) executors naming it use; a cli
// connection's command, which cli executors naming it run; an mcp
// connection's server, a program (command) or a streamable HTTP URL,
// whose tools mcp executors call.
type Connection struct {
	Name    string
	Kind    string
	BaseURL string
	// URL is an mcp connection's server URL (streamable HTTP).
	URL string
	// Headers may hold ${NAME}: the environment variable, read when the
	// request is sent (never saved).
	Headers          map[string]string
	Command          string
	Args             []string
	Env              map[string]string
	WorkingDirectory string
	Pos              Pos
}

// Connection kinds.
const (
	ConnREST = "rest"
	ConnCLI  = "cli"
	ConnMCP  = "mcp"
)

// ConnectionKeys are the keys of one connections: entry.
type ConnectionKeys struct {
	Kind             string            `yaml:"kind" doc:"rest (baseUrl, headers), cli (command, args, env, workingDirectory) or mcp (a server: command, args, env, or url and headers)."`
	BaseURL          string            `yaml:"baseUrl" doc:"A rest connection's URL, which an executor's path is added to."`
	Headers          map[string]string `yaml:"headers" doc:"Headers of every request through a rest connection; ${NAME} reads an environment variable."`
	Command          any               `yaml:"command" doc:"The program of a cli (or mcp) connection: a name, or a list of the program and its first arguments."`
	Args             []string          `yaml:"args" doc:"Arguments of the program, before the executor's own."`
	Env              map[string]string `yaml:"env" doc:"Environment variables of the program."`
	WorkingDirectory string            `yaml:"workingDirectory" doc:"Where the program runs."`
	URL              string            `yaml:"url" doc:"An mcp connection's server URL."`
	Type             string            `yaml:"type" doc:"How some files name kind."`
	Transport        any               `yaml:"transport" doc:"An mcp connection's transport: {kind: stdio, command, args} or {kind: streamable_http, url}."`
	External         bool              `yaml:"external" doc:"Marks a connection to a system outside (kept for readers)."`
	Description      string            `yaml:"description" doc:"What the connection reaches, for readers."`
}

// EachItem calls fn with each mapping of a list (v dereferenced), and its
// index: a v that is no list is reported as notList, an item that is no
// mapping as notMapping, at their places. It reports whether v is a list.
func EachItem(d *yamlpos.Diags, v *yaml.Node, notList, notMapping string, fn func(i int, n *yaml.Node)) bool {
	return yamlpos.EachItem(d, v, notList, notMapping, fn)
}

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
