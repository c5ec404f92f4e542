package wfpart

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// This file holds a workflows: file's libraries that hold no step: its
// scripts: (mcp-flowgate's curated scripts, which script executors run
// by subject) and its connections: (how executors reach a service).

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
	Pos  yamlpos.Pos
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

// ScriptKeys are the keys of one scripts: entry, which the workflow
// reader walks and the JSON Schema lists.
type ScriptKeys struct {
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
	Pos              yamlpos.Pos
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
