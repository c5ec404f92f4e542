package chain

import (
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Workflow is what makes a Chain a state workflow (references 000 and
// 003): states joined by named transitions or by branches on a task's
// result. Deterministic transitions chain on their own; the run stops
// only where a judgment is needed.
type Workflow struct {
	Title string
	Tags  []string
	// InputSchema is the workflow's inputSchema as written; Schema its
	// compiled form, which --input values are converted by and checked
	// against.
	InputSchema map[string]any
	Schema      *jsonschema.Resolved
	// InitialState is where a run begins.
	InitialState string
	// InitialContext is the context a run begins with (mcp-flowgate's
	// initialContext); executors and output mappings add to it.
	InitialContext map[string]any
	// MaxChainDepth caps the transitions one call (a run or a resume)
	// executes on its own.
	MaxChainDepth int
	States        []*State
	// AgentModel, when set, decides agent decision points instead of
	// pausing (the workflow's `agent: {model: ...}`).
	AgentModel string
	// FieldPos is where each of the workflow's keys was written.
	FieldPos map[string]Pos

	// Cap is what a capability declares of itself: verb, lifecycle and
	// the snippet's outputs.
	Cap Capability
	// Skills are the guidance fragments shown with every decision of the
	// workflow; Library is the file's skills: library they come from.
	Skills  SkillRefs
	Library map[string]*Fragment
	// Blackboard declares the context's slots, nil when it declares none.
	Blackboard *Blackboard
	// InputsInContext seeds the context with the inputs' values (v0.6
	// `inputs:` and a snippet's inputs: a capability's blackboard begins
	// as its inputs).
	InputsInContext bool
	// LinkFilter is the workflow's default of its states' linkFilter.
	LinkFilter string
	// Timeout, when set, is how long a run may take in all: a run or
	// resume that finds it passed moves to OnTimeout, a state.
	Timeout   time.Duration
	OnTimeout string

	// Counters are the variables {{edge_count:a->b}} reads (a task
	// chain's macro): each the number of times the run went a → b.
	Counters map[string]Edge

	byName      map[string]*State
	inputOrder  []string
	unreachable []*Step
}

// DefaultMaxChainDepth is reference 000's default depth limit.
const DefaultMaxChainDepth = 50

// End is the goto target that ends a run successfully (reference 003).
const End = "end"

// State returns the state of the given name, or nil.
func (w *Workflow) State(name string) *State { return w.byName[name] }

// Actors of a transition: who decides to take it.
const (
	ActorDeterministic = "deterministic"
	ActorAgent         = "agent"
	ActorHuman         = "human"
)

// State is one state of a workflow: either named transitions, or a task
// whose result is branched on, or terminal.
//
// The yaml tags name the keys a state may hold (walk reads them); the
// order is the one did-you-mean tries them in.
type State struct {
	Name     string
	Goal     string `yaml:"goal" doc:"What the decision at this state is for (shown with its links)."`
	Guidance string `yaml:"guidance" doc:"Instructions for whoever decides here."`
	// Description says what the state is, for whoever reads the file
	// (mcp-flowgate writes one on its states).
	Description string `yaml:"description" doc:"What the state is, for readers of the file and graph."`
	Terminal    bool   `yaml:"terminal" doc:"The run ends here: successfully, unless outcome says otherwise."`
	// Outcome, on a terminal state, is how a run that ends there ended:
	// succeeded (the default), failed or cancelled, so that CI can tell
	// an abort from a deploy by the exit code.
	Outcome string `yaml:"outcome" doc:"On a terminal state: succeeded (default), failed or cancelled; failed and cancelled end the run with that status and exit 1."`
	// Transitions, in the order written (reference 000).
	Transitions []*Transition `yaml:"transitions" doc:"Named transitions out of the state."`
	// Task and Branches are reference 003's form.
	Task     *Step     `yaml:"task" doc:"A step whose result string the branches match (reference 003)."`
	Branches []*Branch `yaml:"transition" doc:"transition: {branches: [...]}: where the task's result leads."`
	// Timeout, on a decision point, is how long it may wait; OnTimeout the
	// transition taken once it has passed.
	Timeout   time.Duration `yaml:"timeout" doc:"How long a decision point may wait (30m, 2h); then on_timeout is taken."`
	OnTimeout string        `yaml:"on_timeout" doc:"The transition taken once timeout has passed."`
	// OnFailure is the state a failed task leads to (transition:
	// {on_failure}); empty, the run fails.
	OnFailure string `yaml:"-"`
	// Actor is the actor of the state's transitions that name none.
	Actor string `yaml:"actor" doc:"The actor of the state's transitions that declare none (deterministic, agent or human)."`
	// Skills are guidance fragments shown with this state's decision.
	Skills SkillRefs `yaml:"skills" doc:"Guidance fragments (subjects of the skills: library) shown with the state's decision."`
	// Delegate names the agent of an mcp-flowgate gateway that decides
	// here; a runner has none, so it is accepted with a warning.
	Delegate string `yaml:"delegate" dialect:"peer" doc:"Accepted with a warning: it names an agent of an mcp-flowgate gateway; chainrun's decisions are the caller's, a model's (agent.model) or a person's."`
	// OnEnter runs each time the run enters the state.
	OnEnter *OnEnter `yaml:"onEnter" doc:"{executor, output, reliability}: run each time the run enters the state, before anything else happens there."`
	// Slots are the state's own context slots.
	Slots []*Slot `yaml:"slots" doc:"The state's context slots, each a JSON Schema with scope: state (set to default on entry, removed on leaving) and default."`
	// LinkFilter says which transitions a decision offers: byGuards
	// (those that hold) or all.
	LinkFilter string `yaml:"linkFilter" doc:"byGuards: a decision offers only the transitions whose guards and condition hold (the default); all: every transition, those that do not hold marked so."`

	Pos      Pos
	FieldPos map[string]Pos

	// goal and guidance are Goal and Guidance as validation parsed them.
	goal, guidance *Template
	// branchesUnread: transition: is not a mapping of branches (reported),
	// so its branches are not also called empty.
	branchesUnread bool
	// timeoutUnread: the timeout written is no duration (reported), so
	// on_timeout is not also told it lacks one.
	timeoutUnread bool
}

// GoalTemplate is the state's goal with its {input.x}, {context.x} and
// {variable} references parsed (its {{ $.path }} placeholders are in its
// literal parts); the text as written when the state was not validated.
func (s *State) GoalTemplate() *Template { return stateText(s.goal, s.Goal) }

// GuidanceTemplate is GoalTemplate for the state's guidance.
func (s *State) GuidanceTemplate() *Template { return stateText(s.guidance, s.Guidance) }

func stateText(t *Template, text string) *Template {
	if t != nil {
		return t
	}
	return Literal(text)
}

// OnEnter is what runs when the run enters a state: an executor whose
// result output mappings read, as a transition's do.
type OnEnter struct {
	Executor *Step
	Output   []*OutputMapping
	Pos      Pos
}

// Outcomes a terminal state may declare.
const (
	OutcomeSucceeded = "succeeded"
	OutcomeFailed    = "failed"
	OutcomeCancelled = "cancelled"
)

// At returns where a field of the state was written, or the state.
func (s *State) At(field string) Pos {
	if p, ok := s.FieldPos[field]; ok {
		return p
	}
	return s.Pos
}

// Transition returns the state's transition of that name, or nil.
func (s *State) Transition(name string) *Transition {
	for _, t := range s.Transitions {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Automatic reports whether the runtime moves on from the state by
// itself: a task, or transitions that are all deterministic.
func (s *State) Automatic() bool {
	if s.Terminal {
		return false
	}
	if s.Task != nil {
		return true
	}
	for _, t := range s.Transitions {
		if t.Actor != ActorDeterministic {
			return false
		}
	}
	return len(s.Transitions) > 0
}

// Transition is a named move from one state to another.
//
// The yaml tags name the keys a transition may hold, in the order
// did-you-mean tries them.
type Transition struct {
	Name   string
	Target string `yaml:"target" doc:"The state the transition leads to."`
	Actor  string `yaml:"actor" doc:"Who takes it: deterministic (the runtime, at once), agent or human (a decision point)."`
	// Executor runs when the transition is taken, before the move.
	Executor *Step `yaml:"executor" doc:"A step of any kind run when the transition is taken; a cli step's JSON object output is merged into context."`
	// Condition, when set, must hold for the transition to be viable.
	Condition string `yaml:"condition" doc:"Expression that must hold for the transition to be viable."`
	// Guards must all hold too (mcp-flowgate): expressions over the
	// run's documents, the principal's permissions and roles, evidence.
	Guards []*Guard `yaml:"guards" doc:"Guards that must all hold, beside the condition, for the transition to be viable: {kind: expr, expr: \"$.context.x == 1\"}, {kind: permission, permission: P}, {kind: role, role: R}, {kind: evidence, requires: [KIND, {kind, count}]}, {kind: guidance_acknowledged|script_acknowledged, subject: S}, {kind: all_of|any_of, guards: [...]}, {kind: not, guard: {...}}."`
	// Evidence is the executor's evidence: declaration, taken out of
	// the executor when it was read.
	Evidence *EvidenceDecl `yaml:"-"`
	// Branches pick the target by the context the transition produced;
	// Target is their fallback.
	Branches         []*TransitionBranch `yaml:"branches" doc:"[{when: GUARD, target: STATE}]: once the executor ran and output wrote the context, the first branch whose guard holds picks the target; target is the fallback."`
	Title            string              `yaml:"title" doc:"How links show the transition (default: its name in words)."`
	MaxFiresPerVisit int                 `yaml:"max_fires_per_visit" doc:"How many times the transition may fire while the run stays in its state (a self-loop's bound); once reached it is not offered and a --take of it is refused, until the run leaves the state and comes back."`
	// Output, when written, sets these context keys once the executor
	// succeeded, instead of merging a cli executor's JSON into context.
	Output []*OutputMapping `yaml:"output" doc:"Context keys set when the transition is taken: each a JSONPath into $.output (json, text, exitCode, stderr), $.arguments, $.context, $.workflow.input or $.input, a literal, or {add|subtract|multiply|divide|set|concat: [operands]}. Replaces the merge of a cli executor's JSON into context."`

	// InputSchema is the JSON Schema of the arguments a decision taking
	// the transition gives (--arg, a model's tool call); Prefill their
	// defaults.
	InputSchema map[string]any `yaml:"inputSchema" doc:"JSON Schema of the arguments whoever takes the transition gives (resume --take T --arg k=v, the agent's tool call); read as $.arguments.k."`
	Prefill     map[string]any `yaml:"prefill" doc:"Default values of the transition's arguments."`
	// Skills are guidance fragments shown with the transition's link.
	Skills SkillRefs `yaml:"skills" doc:"Guidance fragments (subjects of the skills: library) shown with this transition's link."`
	// Reliability is mcp-flowgate's spelling of the executor's timeout
	// and retries, and the executors that stand in when it fails.
	Reliability any `yaml:"reliability" doc:"{timeoutMs, retry: {maxAttempts, backoff: none|fixed|exponential, initialDelayMs, maxDelayMs, retryOn}, fallback: {strategy: first_success, executors: [EXECUTOR…]}}: the executor's timeout_ms and retry, then each fallback executor in order under the same, the first that succeeds answering."`

	Pos      Pos
	FieldPos map[string]Pos

	cond     *Expression
	args     *jsonschema.Resolved
	argTypes map[string]string
	needs    []NeededArg
	argProps map[string]*jsonschema.Resolved
	prefill  *Mapped
}

// ArgSchema is the compiled inputSchema of the transition's arguments,
// nil when it has none.
func (t *Transition) ArgSchema() *jsonschema.Resolved { return t.args }

// ArgType is the JSON Schema type declared for an argument ("" when none
// is), which --arg text is converted to.
func (t *Transition) ArgType(name string) string { return t.argTypes[name] }

// At returns where a field of the transition was written.
func (t *Transition) At(field string) Pos {
	if p, ok := t.FieldPos[field]; ok {
		return p
	}
	return t.Pos
}

// Cond is the compiled condition, nil when there is none.
func (t *Transition) Cond() *Expression { return t.cond }

// DisplayTitle is the title links show: the one written, else the name
// in words (build_artifact → Build artifact).
func (t *Transition) DisplayTitle() string {
	if t.Title != "" {
		return t.Title
	}
	return Humanize(t.Name)
}

// Humanize turns an identifier into words: build_artifact → Build artifact.
func Humanize(name string) string {
	s := strings.NewReplacer("_", " ", "-", " ").Replace(name)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// slot returns the state's local slot of that name, or nil.
func (s *State) slot(name string) *Slot {
	for _, x := range s.Slots {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// SlotFor returns the schema-carrying slot a write of key at state s
// goes to: the state's own slot first, then the workflow's; nil when
// neither declares it.
func (w *Workflow) SlotFor(s *State, key string) *Slot {
	if s != nil {
		if x := s.slot(key); x != nil {
			return x
		}
	}
	return w.Blackboard.Slot(key)
}

// Fragments returns the fragments of the library the subjects name, in
// order and once each; subjects the library lacks are left out (load
// warned of them).
func (w *Workflow) Fragments(subjects ...[]string) []*Fragment {
	var out []*Fragment
	seen := map[string]bool{}
	for _, list := range subjects {
		for _, s := range list {
			if f := w.Library[s]; f != nil && !seen[s] {
				seen[s] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// NamesCapability reports whether a workflow's name or a definitionId
// names a capability (cap.*), whose contract a snippet declares.
func NamesCapability(id string) bool { return namesCapability(id) }
