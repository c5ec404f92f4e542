package chain

import (
	"regexp"
	"sync"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// preToolType is what the core knows of one pre_tool type: the type it
// runs as (cli runs as shell) and whether its failures are injected as
// text unless on_error says otherwise (OCC's types, OCC's default). What
// each type takes and requires is the pre_tools reader's
// (RegisterPreToolReader: pkg/run/pretool).
type preToolType struct {
	name    string
	alias   string
	injects bool
}

var preToolTypes = []preToolType{
	{name: "shell"}, {name: "cli", alias: "shell"}, {name: "http"}, {name: "file"},
	{name: "current_datetime", injects: true}, {name: "http_fetch", alias: "http", injects: true},
	{name: "bash", injects: true}, {name: "read_file", alias: "file", injects: true},
	{name: "write_file", injects: true}, {name: "env_var", injects: true},
	{name: "web_search", injects: true}, {name: "ast_parse", injects: true},
}

// PreToolTypes lists the pre_tool types, for messages and the schema.
func PreToolTypes() []string {
	out := make([]string, len(preToolTypes))
	for i, u := range preToolTypes {
		out[i] = u.name
	}
	return out
}

func preToolTypeNamed(name string) *preToolType {
	for i := range preToolTypes {
		if preToolTypes[i].name == name {
			return &preToolTypes[i]
		}
	}
	return nil
}

// Base is the type a pre_tool runs as: OCC's http_fetch runs as http,
// read_file as file, cli as shell; the others are themselves.
func (p PreTool) Base() string {
	if u := preToolTypeNamed(p.Type); u != nil && u.alias != "" {
		return u.alias
	}
	return p.Type
}

// ErrorMode is what a failure of the pre_tool means: on_error as
// written, else inject for OCC's types (OCC's default) and fail for
// shell, http and file.
func (p PreTool) ErrorMode() string {
	if p.OnError != "" {
		return p.OnError
	}
	if u := preToolTypeNamed(p.Type); u != nil && u.injects {
		return "inject"
	}
	return "fail"
}

// secretEnvName matches the names of environment variables that hold
// secrets: an env_var pre_tool never reads them into a prompt.
var secretEnvName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|PRIVATE|COOKIE|SESSION)|^(AWS|GCP|AZURE|GITHUB|GH|NPM|DOCKER|SSH|GPG)_|^(DATABASE_URL|REDIS_URL|MONGO.*)$`)
})

// SecretEnvName reports whether an environment variable's name says it
// holds a secret (API_KEY, GITHUB_TOKEN, DB_PASSWORD, AWS_…), which an
// env_var pre_tool refuses to read.
func SecretEnvName(name string) bool { return secretEnvName().MatchString(name) }

// PreToolReader is how a step's pre_tools are read and checked: the
// package that runs them registers it (pkg/run/pretool), so the format
// knows a pre_tool's fields (PreTool) but not what each type requires.
type PreToolReader struct {
	// Decode reads a step's pre_tools: list.
	Decode func(d *yamlpos.Diags, s *Step, v *yaml.Node, prefix string)
	// Check checks each of a step's pre_tools and compiles it
	// (Checker.KeepPreTool).
	Check func(v Checker, s *Step)
	// Schema is the JSON Schema of a pre_tool's keys that their Go type
	// does not say (the type's enum, …).
	Schema map[string]any
}

// preToolReader is the registered reader of pre_tools, nil in a program
// that links none.
var preToolReader *PreToolReader

// RegisterPreToolReader sets the reader of pre_tools; pkg/run/pretool
// calls it in its init. A second call replaces the first.
func RegisterPreToolReader(r PreToolReader) { preToolReader = &r }

// decodePreTools reads a step's pre_tools through the registered reader;
// a program without one says so, at the key.
func decodePreTools(d *yamlpos.Diags, s *Step, k, v *yaml.Node, prefix string) {
	if preToolReader == nil {
		d.Errorf(yamlpos.Of(k), "%spre_tools: this program reads no pre_tools: it links no pre_tools reader (pkg/builtin)", prefix)
		return
	}
	preToolReader.Decode(d, s, v, prefix)
}

// PreToolSchema is the registered reader's schema of a pre_tool's keys.
func PreToolSchema() map[string]any {
	if preToolReader == nil {
		return nil
	}
	return preToolReader.Schema
}

// checkPreTools checks a step's pre_tools through the registered reader.
func (v *validator) checkPreTools(s *Step) {
	if len(s.PreTools) > 0 && preToolReader != nil {
		preToolReader.Check(Checker{v}, s)
	}
}

// Taken reports whether name is already a variable a step's pre_tool
// may not take for its inject_as: a step's output_var, input or item.
func (c Checker) Taken(name string) bool { return c.v.produce[name] != nil || reservedVars[name] }

// ShellRefs checks a script's references, parsed, as ShellScript does a
// script's text: each must name what the step can see, and none may
// stand where the shell runs it as code.
func (c Checker) ShellRefs(s *Step, field string, t *Template) *Template {
	return c.v.checkShell(s, field, c.v.checkRefs(s, field, t))
}

// KeepPreTool keeps a step's pre_tool, compiled, in the order checked.
func (c Checker) KeepPreTool(s *Step, cp CompiledPreTool) {
	if s.compiled == nil {
		s.compiled = &Compiled{}
	}
	s.compiled.PreTools = append(s.compiled.PreTools, cp)
}
