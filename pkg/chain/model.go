package chain

import (
	"fmt"

	yaml "go.yaml.in/yaml/v4"
)

// Pos is a 1-based line and column in a chain file, kept so that every
// error can point at the text a user must change.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// String renders the position as line:col, the form editors jump to.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Chain is a validated DAG chain (reference 004): inputs, steps and the
// variable whose value is the chain's result.
//
// The yaml tags name the keys of a DAG chain file, in the order
// did-you-mean tries them.
type Chain struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Version     string   `yaml:"version"`
	Inputs      []*Input `yaml:"inputs"`
	Steps       []*Step  `yaml:"steps"`
	// Output names the output_var whose value is the chain's result.
	Output string `yaml:"output"`
	// Budget caps the model use of a run of the chain.
	Budget *Budget `yaml:"budget"`
	// Workflow is set when the chain is a state workflow; its executors
	// and tasks are then also listed in Steps.
	Workflow *Workflow `yaml:"-"`
	// Tools are the chain-defined tools its agent steps may list.
	Tools []*ToolDef `yaml:"tools"`

	// File is the path the chain was loaded from; Source is its bytes, kept
	// so a run can snapshot the chain exactly as it was at launch.
	File   string
	Source []byte
	Pos    Pos
	// OutputPos is where `output` was written, for errors about it.
	OutputPos Pos

	byID map[string]*Step
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
	for _, s := range c.Steps {
		if s.Kind == KindAgent {
			return true
		}
	}
	return false
}

// Input is a chain-level parameter supplied with --input.
type Input struct {
	Name        string  `yaml:"name"`
	Description string  `yaml:"description"`
	Optional    bool    `yaml:"optional"`
	Default     *string `yaml:"default"`
	// Secret values are masked wherever a run is reported or saved.
	Secret bool `yaml:"secret"`
	// Type is the JSON Schema type a workflow's inputSchema declares for
	// it: --input text is converted to it.
	Type string `yaml:"-"`
	Pos  Pos    `yaml:"-"`
}

// Required reports whether a run must supply the input.
func (in *Input) Required() bool { return !in.Optional && in.Default == nil }

// Budget caps a run's model use: tokens (input and output) and requests.
// Zero means no cap.
type Budget struct {
	MaxTokens   int `yaml:"max_tokens" json:"max_tokens"`
	MaxLLMCalls int `yaml:"max_llm_calls" json:"max_llm_calls"`
}

// Retry is reference 004's retry block; it applies to every step kind.
type Retry struct {
	// Max is the number of attempts in all (1 = no retry).
	Max     int     `yaml:"max" json:"max"`
	DelayMS int     `yaml:"delay_ms" json:"delay_ms"`
	Backoff float64 `yaml:"backoff" json:"backoff"`
}

// Cache is reference 004's per-step result cache for LLM steps.
type Cache struct {
	Enabled    bool `yaml:"enabled" json:"enabled"`
	TTLMinutes int  `yaml:"ttl_minutes" json:"ttl_minutes"`
}

// Guardrail is one output validation rule (reference 004).
type Guardrail struct {
	Type  string `yaml:"type" json:"type"`
	Value any    `yaml:"value" json:"value,omitempty"`
	Pos   Pos    `yaml:"-" json:"-"`
}

// PreTool injects data into a step before it runs (reference 004).
type PreTool struct {
	Type     string            `yaml:"type" json:"type"`
	Command  string            `yaml:"command" json:"command,omitempty"`
	Args     []string          `yaml:"args" json:"args,omitempty"`
	Run      string            `yaml:"run" json:"run,omitempty"`
	URL      string            `yaml:"url" json:"url,omitempty"`
	Method   string            `yaml:"method" json:"method,omitempty"`
	Headers  map[string]string `yaml:"headers" json:"headers,omitempty"`
	Path     string            `yaml:"path" json:"path,omitempty"`
	InjectAs string            `yaml:"inject_as" json:"inject_as"`
	OnError  string            `yaml:"on_error" json:"on_error,omitempty"`
	Pos      Pos               `yaml:"-" json:"-"`
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
