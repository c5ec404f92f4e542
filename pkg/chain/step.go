package chain

import (
	"fmt"
	"slices"
)

// Kind is what a step does. One vocabulary serves DAG steps, transition
// executors and state tasks.
type Kind string

// The step kinds. KindShell is an alias of KindCLI kept because reference
// 004 users write `type: shell`. Each kind's fields, checks and compile
// live in its own file (step_agent.go, step_cli.go, …), tied to the kind by
// the table in kinds.go.
const (
	KindAgent     Kind = "agent"
	KindCLI       Kind = "cli"
	KindShell     Kind = "shell"
	KindHTTP      Kind = "http"
	KindTransform Kind = "transform"
	KindFile      Kind = "file"
	KindHuman     Kind = "human"
	KindChain     Kind = "chain"
	KindNoop      Kind = "noop"
	// KindREST is mcp-flowgate's name of an http executor (one that
	// names a connection: and a path).
	KindREST     Kind = "rest"
	KindScript   Kind = "script"
	KindParallel Kind = "parallel"
	KindWorkflow Kind = "workflow"
	// KindRouter, KindEvaluator and KindGate are OCC's router, evaluator
	// and gate steps.
	KindRouter    Kind = "router"
	KindEvaluator Kind = "evaluator"
	KindGate      Kind = "gate"
	// OCC's kinds (reference 004's own engine): a loop over items, a
	// merge of variables, a call of another chain, a debate of models,
	// a webhook and a browser (which loads but does not run here).
	KindLoop     Kind = "loop"
	KindMerge    Kind = "merge"
	KindSubchain Kind = "subchain"
	KindDebate   Kind = "debate"
	KindWebhook  Kind = "webhook"
	KindBrowser  Kind = "browser"
	// KindMCP calls a tool of an MCP server (a connection of kind mcp).
	KindMCP Kind = "mcp"
	// KindPipeline runs its steps one after another inside one step,
	// each reading the one before's output (mcp-flowgate's pipeline).
	KindPipeline Kind = "pipeline"
	// KindStructuralAnalysis checks a candidate workflow definition
	// against mcp-flowgate's structural rules.
	KindStructuralAnalysis Kind = "structural_analysis"
	// KindDryRun loads a candidate workflow definition with chainrun's own
	// loader and reports what it finds, running nothing.
	KindDryRun Kind = "dry_run"
	// KindRegistry publishes a candidate workflow definition as a workflow
	// file of the chains directory.
	KindRegistry Kind = "registry"
)

// Deterministic reports whether the kind runs without any model: its
// unit does not ask one (agent, router, evaluator, merge, debate do).
func (k Kind) Deterministic() bool { return !runsModel(k) }

// Step is one node of a chain: the fields every kind shares, then the
// parts of its kind's body it was written with. A step holds only the
// parts it has (a cli step its basic.CLIFields and the ProcessFields of
// its args, a router its RouterFields and the AgentFields it borrows), so
// a chain's steps cost what they hold; validation rejects a field of
// another kind, naming the kinds it belongs to. Each part is read through
// its accessor (basic.CLI(s).Command, s.Agent().Prompt: Part), which
// answers the part's zero value for a step without one, and written
// through Own (step_parts.go).
type Step struct {
	CommonFields

	// parts are the step's body parts (*AgentFields, *basic.CLIFields, …),
	// each at most once, added as the step's keys are read or set.
	parts []any

	// Kind is Type normalised (shell → cli, empty → agent).
	Kind Kind `yaml:"-"`
	// Pos is where the step begins; FieldPos where each of its keys is.
	Pos      Pos            `yaml:"-"`
	FieldPos map[string]Pos `yaml:"-"`

	// Evidence is what a step written inside a parallel or pipeline step
	// records once it succeeded (its evidence:, mcp-flowgate's), for
	// evidence guards; nil when it declares none.
	Evidence *EvidenceDecl `yaml:"-"`

	// Handler, set on a task of a contenox task chain (and on the
	// executor of a hook's tool), is how the step runs in place of its
	// kind's body (taskchain_handler.go); nil for every other step.
	Handler Handler `yaml:"-"`

	// Fallbacks are the executors an mcp-flowgate reliability.fallback
	// tries in order once this executor failed past its retries, each
	// under the same timeout and retry; the first that succeeds answers.
	Fallbacks []*Step `yaml:"-"`

	// Compiled forms, filled by validation.
	compiled *compiledStep
	// primary is the executor a fallback stands in for (nil on any
	// other step).
	primary *Step
	// unregistered is the kind a workflows: file's executor names that no
	// kind has (Unregistered).
	unregistered string
	// owner and role name a step the user wrote inside something else,
	// as in transition "go" executor (owner transition, role executor);
	// its ID is then that thing's name.
	owner, role string
	// keywordDefault is set on a workflow task whose state has a default
	// branch (see KeywordFallsThrough).
	keywordDefault bool
	// cutIsResult is set on a workflow task whose state compares its
	// finish reason with a branch that takes length (see CutIsResult).
	cutIsResult bool
	// meant are the keys this step's unknown fields are close to: what
	// its kind requires is then not judged, since the field it lacks is
	// likely one misspelt (and reported already).
	meant []string
	// lostDeps is set on a step whose depends_on names a step that does
	// not exist (reported): the other checks go on without that name.
	lostDeps bool
	// label, when set, is how messages name a step written inside
	// another (a parallel executor's branch).
	label string
	// fanned marks the do: step of a parallel executor's for_each, which
	// reads its item as {item} and $.branch.
	fanned bool
	// parent is the step this one is written inside (a parallel step's
	// branch, a loop's step_template, the model calls of a merge or a
	// debate): it reads what the parent may read.
	parent *Step
	// locals are the names the step reads besides the run's variables:
	// a loop item's {item}, {item_index} and {loop_total}.
	locals []string
	// piped marks a chain of an OCC pipeline: its output is kept by its
	// id whether or not another reads it.
	piped bool
	// pipeSummary is an OCC pipeline entry's summarize_output (see
	// PipedOutput).
	pipeSummary PipeSummary
	// reading is its chain's (reading.go).
	reading *Reading
	// lifecycle is the handler a step of handlers: belongs to
	// (on_failure, …), seq its place in that handler's list.
	lifecycle string
	seq       int
}

// KeywordFallsThrough reports whether a condition_key answer that names
// none of the keywords is a result rather than a failure: the step is a
// workflow task whose state has a default branch to take it.
func (s *Step) KeywordFallsThrough() bool { return s.keywordDefault }

// CutIsResult reports whether an answer cut at max_tokens is the step's
// result, length, rather than its failure: the step is a workflow's agent
// task (without condition_key) whose state has a branch other than the
// default one that takes length. Where nothing reads the finish reason,
// a part of an answer must not pass for the whole.
func (s *Step) CutIsResult() bool { return s.cutIsResult }

// Primary is the executor a fallback stands in for, and the step
// itself for any other: what one call of a transition or onEnter keeps
// the same across its candidates (mcp-flowgate computes an executor's
// idempotencyKey from the primary's, for every candidate).
func (s *Step) Primary() *Step {
	if s.primary != nil {
		return s.primary
	}
	return s
}

// FallbackNumber is which of its primary's fallbacks the step is, 1 for
// the first; 0 for any step that is no fallback.
func (s *Step) FallbackNumber() int {
	if s.primary == nil {
		return 0
	}
	return slices.Index(s.primary.Fallbacks, s) + 1
}

// Who is how messages name the step: step "id", or what the user
// wrote it as (transition "go" executor, state "s" task).
func (s *Step) Who() string { return s.Subject() }

// Subject is how messages name the step: step "id", or what the user
// wrote it as (transition "go" executor, state "s" task, tool "t"
// executor).
func (s *Step) Subject() string {
	if s.label != "" {
		return s.label
	}
	if s.owner != "" {
		return s.owner + " " + quote(s.ID) + " " + s.role
	}
	return fmt.Sprintf("step %q", s.ID)
}

// CommonFields belong to every step kind: reference 002's lifecycle
// features (guardrails, retry, conditions, dependencies) work the same for
// deterministic and LLM steps. The doc tags are the descriptions the JSON
// Schema gives editors.
type CommonFields struct {
	ID        string   `yaml:"id" doc:"Unique step id: letters, digits, '-' and '_'."`
	Type      string   `yaml:"type" doc:"What the step does: agent (an LLM call, the default), cli/shell, http/rest, transform, file, human, chain, noop, script, parallel, pipeline, workflow, mcp, structural_analysis, dry_run, registry; OCC's router, evaluator, gate, loop, merge, subchain, debate, webhook, browser."`
	Label     string   `yaml:"label" doc:"A human-readable name for reports and graphs."`
	OutputVar string   `yaml:"output_var" doc:"The variable the step's output is stored in; read it as {NAME} or {NAME.field}."`
	DependsOn []string `yaml:"depends_on" scalar:"ok" doc:"Steps that must finish before this one starts."`
	Condition string   `yaml:"condition" doc:"Expression; when false the step is skipped and its output_var is empty. '{var} == \"x\"' works."`
	// EarlyExitIf ends the run successfully when it holds after the step.
	EarlyExitIf     string `yaml:"early_exit_if" doc:"Expression checked after the step succeeds; when true the run ends successfully."`
	TimeoutMS       int    `yaml:"timeout_ms" doc:"Time limit of one attempt in milliseconds (default 300000, at most 604800000: 7 days)."`
	Retry           *Retry `yaml:"retry" doc:"Attempts in all and the delay between them: {max, delay_ms, backoff}, or a number of attempts."`
	ContinueOnError bool   `yaml:"continue_on_error" doc:"When the step fails, its dependents still run and the run can succeed."`
	// Idempotent false marks a step (a deploy, a payment) that must never
	// run again without a person confirming it: no retry, and resume asks
	// for --rerun when it may have started.
	Idempotent           *bool       `yaml:"idempotent" doc:"false: never run again on its own (no retry; resume asks for --rerun when it may have started)."`
	PreTools             []PreTool   `yaml:"pre_tools" doc:"Data fetched before the step (shell, http, file, and OCC's pre_tool types), each known as its inject_as variable."`
	ForEach              string      `yaml:"for_each" doc:"Run the step once per item of a list variable, as {item}: \"{list}\"."`
	Guardrails           []Guardrail `yaml:"guardrails" doc:"Rules the output must follow; a violation fails the attempt and is retried within retry."`
	OutputMustContain    []string    `yaml:"output_must_contain" doc:"Texts the output must contain (older form of must_contain)."`
	OutputMustNotContain []string    `yaml:"output_must_not_contain" doc:"Texts the output must not contain (older form of must_not_contain)."`
	OutputMaxLength      int         `yaml:"output_max_length" doc:"Most characters the output may have (older form of max_length)."`
	OutputSchema         string      `yaml:"output_schema" doc:"json, markdown or text; json requires JSON output and exposes its fields."`
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

// HasGate reports whether a DAG chain has a gate step: only then does
// resume --take decide something of it.
func (c *Chain) HasGate() bool {
	return slices.ContainsFunc(c.Steps, func(s *Step) bool { return s.Kind == KindGate })
}

// SetLocals says which names the step reads besides the run's variables
// (a loop item's {item}): set by the kind that gives them, when its step
// is checked.
func (s *Step) SetLocals(names []string) { s.locals = names }

// Owner is the step holding this one (a parallel's branch, a loop's
// step_template), "" for a step of the chain itself.
func (s *Step) Owner() string { return s.owner }

// The decisions that release a waiting gate: resume --take approve|reject,
// and a gate's on_timeout.
const (
	GateApprove = "approve"
	GateReject  = "reject"
)

// SetSubject names a step built inside another in messages ("debate
// \"d\" agent 2"), where Subject would name it by an id it lacks.
func (s *Step) SetSubject(label string) { s.label = label }
