package chain

import (
	"github.com/chainrun/chainrun/pkg/chain/envfiles"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// Pos is a 1-based line and column in a chain file (yamlpos.Pos).
type Pos = yamlpos.Pos

// Chain is a validated DAG chain (reference 004): inputs, steps and the
// variable whose value is the chain's result.
//
// The yaml tags name the keys of a DAG chain file, in the order
// did-you-mean tries them.
type Chain struct {
	Name        string   `yaml:"name" doc:"The chain's name: chainrun run NAME finds it by this (letters, digits, '-', '_', '.')."`
	Description string   `yaml:"description" doc:"One line shown by chainrun list."`
	Version     string   `yaml:"version" doc:"Your version of the chain (free text)."`
	Inputs      []*Input `yaml:"inputs" doc:"Parameters given with --input: a list of {name, description, optional, default, secret, enum} (or plain names)."`
	Steps       []*Step  `yaml:"steps" doc:"The steps. Each starts as soon as the steps in its depends_on have finished."`
	// Output names the output_var whose value is the chain's result.
	Output string `yaml:"output" doc:"The output_var whose value is the chain's result."`
	// Budget caps the model use of a run of the chain.
	Budget *Budget `yaml:"budget" doc:"Caps on the run's model use: max_tokens and max_llm_calls."`
	// KeepGoing lets the steps that do not depend on a failed step finish
	// (as --keep-going does) instead of being cancelled.
	KeepGoing bool `yaml:"keep_going" doc:"true: after a step fails, the steps that do not depend on it still run to the end (its dependents are skipped); the run still fails. Default false: a failure cancels the steps running (as --keep-going does for one run)."`
	// Workflow is set when the chain is a state workflow; its executors
	// and tasks are then also listed in Steps.
	Workflow *Workflow `yaml:"-"`
	// Tools are the chain-defined tools its agent steps may list.
	Tools []*ToolDef `yaml:"tools" doc:"Tools the chain defines for its agent steps: each a description, the JSON Schema of its arguments and a cli, http, transform or file executor reading them as {args.NAME}."`
	// Scripts and Connections are what the chain's workflow file declares
	// for all its workflows: the bodies script steps run by subject, the
	// services http (rest) and cli steps reach by name.
	Scripts     map[string]*Script     `yaml:"-"`
	Connections map[string]*Connection `yaml:"connections" doc:"Services steps reach by name: mcp (a server: command, args, env, or url and headers) for mcp steps, rest (baseUrl, headers) for http steps, cli (command, args, env) for cli steps."`
	// Handlers are the steps run after the chain's own, by how the run
	// ended (handlers.go).
	Handlers *Handlers `yaml:"handlers" doc:"Lifecycle handlers: on_success, on_failure, on_cancel and on_exit, each a step or a list of steps run once the chain's steps have finished, reading {run.status}, {run.error}, {run.failed_step}, {run.id}, {run.name} and every step's output."`
	// Dotenv are the files whose variables the chain's commands get (a
	// workflow file's serve each of its workflows).
	Dotenv []envfiles.File `yaml:"dotenv" doc:"Files of KEY=VALUE lines (.env) whose variables the chain's commands get, under the real environment: a path or a list, each a path relative to the chain file or {path, required: false}."`

	// WriteEnabled is its file's flowgate.authoring.write_enabled: the
	// file opts into registry steps publishing into the chains directory.
	WriteEnabled bool `yaml:"-"`

	// File is the path the chain was loaded from; Source is its bytes, kept
	// so a run can snapshot the chain exactly as it was at launch.
	File   string
	Source []byte
	Pos    Pos
	// OutputPos is where `output` was written, for errors about it.
	OutputPos Pos

	byID map[string]*Step
	// reading is how a front-end reads the chain's file (reading.go);
	// nil for chainrun's own format.
	reading *Reading
	// lenientInputs says the chain is a workflow whose inputs mean what
	// its front-end's peer means by them (inputs_lenient.go), and
	// unregisteredKinds that its executors may name a kind no kind has
	// (unregistered_kind.go): WorkflowDialect.
	lenientInputs, unregisteredKinds bool
	// declaresConnections says the file itself has a connections: block.
	// A file without one leaves its connections to the config (as
	// mcp-flowgate's capability files leave them to the gateway's
	// operator): a name neither declares is then the run's to refuse.
	declaresConnections bool
	// inputsUnread says the inputs: block could not be read (reported):
	// references to inputs are then not judged, as they would all be
	// reported unknown.
	inputsUnread bool
	// siblings are the chains of the same file, which a workflow step's
	// definitionId finds first.
	siblings []*Chain
	// meant are the keys that the file's unknown top-level fields are
	// close to: a chain lacking one of them is not told so a second time.
	meant []string
}

// Sibling returns the chain of that name in the same file, or nil.
func (c *Chain) Sibling(name string) *Chain {
	for _, s := range c.siblings {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// SiblingNames are the names of the chains of the same file.
func (c *Chain) SiblingNames() []string {
	out := make([]string, len(c.siblings))
	for i, s := range c.siblings {
		out[i] = s.Name
	}
	return out
}

// Step returns the step with the given id, or nil.
func (c *Chain) Step(id string) *Step { return c.byID[id] }

// Input returns the declared input with the given name, or nil.
func (c *Chain) Input(name string) *Input {
	for _, in := range c.Inputs {
		if in.Name == name {
			return in
		}
	}
	return nil
}

// NeedsModel reports whether any step calls an LLM, so a caller can insist
// on a configured model only for chains that use one (reference 002: a
// chain of deterministic steps needs no model).
func (c *Chain) NeedsModel() bool {
	needs := false
	c.Walk(func(s *Step) { needs = needs || !s.Kind.Deterministic() })
	return needs
}

// Input is a chain-level parameter supplied with --input.
type Input struct {
	Name        string  `yaml:"name" doc:"The input's name, read as {input.NAME}."`
	Description string  `yaml:"description" doc:"Shown by chainrun list and in errors about the input."`
	Optional    bool    `yaml:"optional" doc:"The input may be omitted ({input.NAME} is then empty)."`
	Default     *string `yaml:"default" doc:"The value when the input is not given (makes it optional)."`
	// Secret values are masked wherever a run is reported or saved.
	Secret bool `yaml:"secret" doc:"Masked as *** in errors, events, results and saved runs; never saved."`
	// Enum lists the values the input may take (a workflow's come from its
	// inputSchema's enum): another is refused, and completion offers them.
	Enum []string `yaml:"enum" doc:"The values the input may take: any other is refused before the run starts, and shell completion offers these."`
	// Type is the input's type: declared (OCC's inputs[].type), or the
	// JSON Schema type a workflow's inputSchema gives it. A value given
	// that is not of it is refused; a workflow's is converted to it.
	Type string `yaml:"type" doc:"string (the default), number, integer, boolean, url, path, array or object, or OCC's enum, text, json, file or image: a value of another type is refused before the run starts."`
	// InputRules are OCC's typed-input rules and hints.
	InputRules `yaml:",inline"`
	Pos        Pos `yaml:"-"`
	// implicit marks an input a file read as OCC's reads ({input.x})
	// without declaring it: OCC takes any input a run is given.
	implicit bool
}

// Implicit reports whether the input is one a file read as OCC's reads
// without declaring it: a run may give it; when none does, nothing
// stands for it, so {input.x} stays as written, as OCC leaves it.
func (in *Input) Implicit() bool { return in.implicit }

// Required reports whether a run must supply the input.
func (in *Input) Required() bool { return !in.Optional && in.Default == nil }

// Budget caps a run's model use: tokens (input and output), requests and
// dollars. Zero means no cap.
type Budget struct {
	MaxTokens   int `yaml:"max_tokens" json:"max_tokens" doc:"Most tokens (input and output) the run may use."`
	MaxLLMCalls int `yaml:"max_llm_calls" json:"max_llm_calls" doc:"Most model requests the run may send."`
	// MaxCostUSD stops the run before a request that would pass it.
	MaxCostUSD float64 `yaml:"max_cost_usd" json:"max_cost_usd,omitempty" doc:"Most US dollars the run's model requests may cost, at config prices: (else the list prices); a request that would pass it is not sent, and a model with no known price is refused."`
}

// Retry is reference 004's retry block; it applies to every step kind.
type Retry struct {
	// Max is the number of attempts in all (1 = no retry).
	Max     int     `yaml:"max" json:"max" doc:"Attempts in all (1 = no retry; at most 1000)."`
	DelayMS int     `yaml:"delay_ms" json:"delay_ms" doc:"Wait before the first retry, in milliseconds (at most 3600000: one hour)."`
	Backoff float64 `yaml:"backoff" json:"backoff" doc:"Each retry waits this many times longer (at most 10; no wait grows past one hour)."`
	// MaxDelayMS caps each wait that backoff grows.
	MaxDelayMS int `yaml:"max_delay_ms" json:"max_delay_ms,omitempty" doc:"The longest wait backoff may grow to, in milliseconds (default and at most 3600000: one hour)."`
}

// Cache is reference 004's per-step result cache for LLM steps.
type Cache struct {
	Enabled    bool `yaml:"enabled" json:"enabled" doc:"Keep and reuse answers."`
	TTLMinutes int  `yaml:"ttl_minutes" json:"ttl_minutes" doc:"How long an answer is kept (default a day)."`
}

// Guardrail is one output validation rule (reference 004).
type Guardrail struct {
	Type  string `yaml:"type" json:"type" doc:"min_length, max_length, must_contain, must_not_contain, regex_match, json_valid or json_schema."`
	Value any    `yaml:"value" json:"value,omitempty" doc:"The rule's value: a number, a text, a regular expression or a JSON Schema."`
	Pos   Pos    `yaml:"-" json:"-"`
}

// PreTool injects data into a step before it runs (reference 004 and
// OCC's pre_tools). Which fields a type takes is in preToolUnits
// (pretools.go).
type PreTool struct {
	Type     string            `yaml:"type" json:"type" doc:"shell, http, file, or OCC's current_datetime, http_fetch, bash, read_file, write_file, env_var, web_search, ast_parse."`
	Command  string            `yaml:"command" json:"command,omitempty" doc:"Program to run (shell), or a script (bash)."`
	Args     []string          `yaml:"args" json:"args,omitempty" doc:"Its arguments (shell)."`
	Run      string            `yaml:"run" json:"run,omitempty" doc:"A script (shell)."`
	URL      string            `yaml:"url" json:"url,omitempty" doc:"URL to fetch (http, http_fetch)."`
	Method   string            `yaml:"method" json:"method,omitempty" doc:"HTTP method (http, http_fetch)."`
	Headers  map[string]string `yaml:"headers" json:"headers,omitempty" doc:"HTTP headers (http, http_fetch)."`
	Body     string            `yaml:"body" json:"body,omitempty" doc:"Request body (http, http_fetch)."`
	JSONPath string            `yaml:"json_path" json:"json_path,omitempty" doc:"Keep only this part of a JSON response, as data.items[0].name (http, http_fetch)."`
	Path     string            `yaml:"path" json:"path,omitempty" doc:"File to read (file, read_file), write (write_file) or parse (ast_parse: a file or a directory)."`
	Content  string            `yaml:"content" json:"content,omitempty" doc:"What write_file writes."`
	Append   bool              `yaml:"append" json:"append,omitempty" doc:"write_file appends instead of replacing the file."`
	Encoding string            `yaml:"encoding" json:"encoding,omitempty" doc:"read_file and write_file: the file's encoding, as OCC names it: utf-8 (default), latin1, ascii, base64 or hex."`
	Query    string            `yaml:"query" json:"query,omitempty" doc:"What web_search searches for."`
	VarName  string            `yaml:"var_name" json:"var_name,omitempty" doc:"The environment variable env_var reads (never a secret: *_KEY, *_TOKEN, *_SECRET, *PASSWORD* … are refused)."`
	Default  string            `yaml:"default_value" json:"default_value,omitempty" doc:"env_var's value when the variable is not set."`
	Timezone string            `yaml:"timezone" json:"timezone,omitempty" doc:"IANA time zone of current_datetime (default UTC)."`
	Format   string            `yaml:"format" json:"format,omitempty" doc:"current_datetime's format: iso (default), unix, locale or date."`
	Stderr   bool              `yaml:"stderr" json:"stderr,omitempty" doc:"bash keeps the script's stderr too, after a [stderr] line."`
	Extract  []string          `yaml:"extract" json:"extract,omitempty" doc:"What ast_parse lists: functions, classes, types, imports, exports (default functions, classes, exports)."`
	InjectAs string            `yaml:"inject_as" json:"inject_as" doc:"The variable the data is known by in the step."`
	OnError  string            `yaml:"on_error" json:"on_error,omitempty" doc:"fail, inject (the error text becomes the value) or skip; the default is fail for shell, http and file, inject for OCC's types."`
	// TimeoutMS, Retry, CacheTTL and Parallel are OCC's per-pre_tool
	// controls; every type takes them.
	TimeoutMS int    `yaml:"timeout_ms" json:"timeout_ms,omitempty" doc:"Time limit of this pre_tool (default the step's timeout_ms)."`
	Retry     int    `yaml:"retry" json:"retry,omitempty" doc:"Tries again this many times after a failure (OCC's meaning: retry: 2 is three attempts)."`
	CacheTTL  int    `yaml:"cache_ttl_minutes" json:"cache_ttl_minutes,omitempty" doc:"Keeps the result this many minutes for the same resolved pre_tool (0: not kept)."`
	Parallel  bool   `yaml:"parallel" json:"parallel,omitempty" doc:"Runs at the same time as the parallel pre_tools next to it; they see the values of the pre_tools before them."`
	Label     string `yaml:"label" json:"label,omitempty" doc:"A name for reports."`
	Pos       Pos    `yaml:"-" json:"-"`
}

// UnmarshalYAML also accepts the shorthand `retry: 3` (three attempts).
func (r *Retry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Load(&r.Max)
	}
	type plain Retry
	return n.Load((*plain)(r), yaml.WithKnownFields())
}

// UnmarshalYAML also accepts the shorthand `cache: true`.
func (c *Cache) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Load(&c.Enabled)
	}
	type plain Cache
	return n.Load((*plain)(c), yaml.WithKnownFields())
}
