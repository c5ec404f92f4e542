package chain

// Kind is what a step does. One vocabulary serves DAG steps, transition
// executors and state tasks.
type Kind string

// The step kinds. KindShell is an alias of KindCLI kept because reference
// 004 users write `type: shell`.
const (
	KindAgent     Kind = "agent"
	KindCLI       Kind = "cli"
	KindShell     Kind = "shell"
	KindHTTP      Kind = "http"
	KindTransform Kind = "transform"
	KindFile      Kind = "file"
	KindHuman     Kind = "human"
	KindChain     Kind = "chain"
)

// Deterministic reports whether the kind runs without any model.
func (k Kind) Deterministic() bool { return k != KindAgent }

// Step is one node of a chain. Fields are grouped by the kinds that accept
// them; validation rejects a field that does not belong to the step's kind.
type Step struct {
	ID        string   `yaml:"id"`
	Type      string   `yaml:"type"`
	Label     string   `yaml:"label"`
	OutputVar string   `yaml:"output_var"`
	DependsOn []string `yaml:"depends_on"`
	Cwd       string   `yaml:"cwd"`
	Condition string   `yaml:"condition"`
	// EarlyExitIf ends the run successfully when it holds after the step.
	EarlyExitIf     string `yaml:"early_exit_if"`
	TimeoutMS       int    `yaml:"timeout_ms"`
	Retry           *Retry `yaml:"retry"`
	ContinueOnError bool   `yaml:"continue_on_error"`
	// Idempotent false marks a step (a deploy, a payment) that must never
	// run again without a person confirming it: no retry, and resume asks
	// for --rerun when it may have started.
	Idempotent *bool     `yaml:"idempotent"`
	PreTools   []PreTool `yaml:"pre_tools"`
	ForEach    string    `yaml:"for_each"`

	Guardrails           []Guardrail `yaml:"guardrails"`
	OutputMustContain    []string    `yaml:"output_must_contain"`
	OutputMustNotContain []string    `yaml:"output_must_not_contain"`
	OutputMaxLength      int         `yaml:"output_max_length"`
	OutputSchema         string      `yaml:"output_schema"`

	// agent
	Model           string            `yaml:"model"`
	Prompt          string            `yaml:"prompt"`
	System          string            `yaml:"system"`
	Temperature     *float64          `yaml:"temperature"`
	MaxTokens       int               `yaml:"max_tokens"`
	Tools           []string          `yaml:"tools"`
	FallbackModels  []string          `yaml:"fallback_models"`
	Cache           *Cache            `yaml:"cache"`
	ContextStrategy map[string]string `yaml:"context_strategy"`
	MaxTurns        int               `yaml:"max_turns"`
	// ConditionKey lists the keywords the model must answer with; the
	// one it chose is the step's result (reference 003's condition_key).
	ConditionKey []string `yaml:"condition_key"`
	// Completion ends the tool loop when the model calls it with valid
	// arguments, which become the output.
	Completion *Completion `yaml:"completion"`

	// cli / shell
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Run     string            `yaml:"run"`
	Env     map[string]string `yaml:"env"`

	// http
	Method       string            `yaml:"method"`
	URL          string            `yaml:"url"`
	Headers      map[string]string `yaml:"headers"`
	Body         string            `yaml:"body"`
	FailOnStatus *bool             `yaml:"fail_on_status"`

	// transform
	Expr string `yaml:"expr"`

	// file
	Path string `yaml:"path"`

	// chain
	Chain string            `yaml:"chain"`
	With  map[string]string `yaml:"with"`

	// Kind is Type normalised (shell → cli, empty → agent).
	Kind Kind `yaml:"-"`
	// Pos is where the step begins; FieldPos where each of its keys is.
	Pos      Pos            `yaml:"-"`
	FieldPos map[string]Pos `yaml:"-"`

	// Compiled forms, filled by validation.
	compiled *compiledStep
}

// At returns the position of a field of the step, or of the step itself
// when the field was not written.
func (s *Step) At(field string) Pos {
	if p, ok := s.FieldPos[field]; ok {
		return p
	}
	return s.Pos
}

// Name is what reports show for the step: its label, else its id.
func (s *Step) Name() string {
	if s.Label != "" {
		return s.Label
	}
	return s.ID
}

// Timeout is the step's time limit in milliseconds (default five minutes,
// as reference 004 specifies).
func (s *Step) Timeout() int {
	if s.TimeoutMS > 0 {
		return s.TimeoutMS
	}
	return DefaultTimeoutMS
}

// DefaultTimeoutMS is reference 004's per-step default: five minutes.
const DefaultTimeoutMS = 5 * 60 * 1000

// Attempts is how many times the step may run in all.
func (s *Step) Attempts() int {
	if s.Retry != nil && s.Retry.Max > 1 {
		return s.Retry.Max
	}
	return 1
}
