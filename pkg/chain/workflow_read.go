package chain

import (
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// The seam of the reader of workflows: files. pkg/chain/wfyaml reads
// them and registers with this package, as pkg/chain/wfcheck registers
// their rules: this package keeps the model, the keys the reader walks
// (which the JSON Schema lists too) and the readers it shares with a DAG
// chain's (steps, tools, scripts, connections, reliability, evidence).

// workflowReader reads a workflows: file: pkg/chain/wfyaml registers it.
var workflowReader func(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain

// RegisterWorkflowReader sets the reader of workflows: files
// DecodeWorkflowFile calls. Only pkg/chain/wfyaml calls it; a second
// registration panics.
func RegisterWorkflowReader(read func(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain) {
	if workflowReader != nil {
		panic("chain: a reader of workflows: files is registered twice")
	}
	workflowReader = read
}

// DecodeWorkflowFile reads a `workflows:` file, chainrun's state
// workflows (references 000 and 003), as dialect reads it: one Chain per
// workflow, in the order written. The zero dialect is chainrun's own
// reading; a front-end passes its peer's.
func DecodeWorkflowFile(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain {
	if workflowReader == nil {
		d.Errorf(yamlpos.Of(root), "this program links no reader of workflows: files (pkg/chain/wfyaml)")
		return nil
	}
	return workflowReader(d, root, dialect)
}

// ScriptKeys are the keys of one scripts: entry, which the workflow
// reader walks and the JSON Schema lists.
type ScriptKeys = scriptKeys

// WorkflowFileKeys are the keys of a workflow file, which its reader
// (pkg/chain/wfyaml) walks and the JSON Schema lists.
type WorkflowFileKeys struct {
	Version   string `yaml:"version" doc:"Your version of the chain (free text)."`
	Workflows any    `yaml:"workflows" doc:"Each workflow's name and its state machine."`
	// Audit is mcp-flowgate's audit sink: accepted so its files load,
	// while every run keeps its own event log.
	Audit any `yaml:"audit" dialect:"peer" doc:"Accepted with a warning and ignored (mcp-flowgate's audit sink): every run keeps its own event log, events.jsonl."`
	// Skills is the file's library of guidance fragments.
	Skills map[string]*Fragment `yaml:"skills" doc:"Guidance fragments by subject (review.style.house-voice): {verb, lifecycle, body, title, source, hash}; workflows, states and transitions name them in their skills: lists, and decisions show them."`
	// Scripts and Connections serve every workflow of the file.
	Scripts     any `yaml:"scripts" doc:"The scripts script executors run, by subject: each a body (#! names its interpreter, else bash), with verb, lifecycle and an optional hash."`
	Connections any `yaml:"connections" doc:"Services executors reach by name: mcp (a server: command, args, env, or url and headers) for mcp executors, rest (baseUrl, headers with ${ENV}) for http/rest executors, cli (command, args, env) for cli executors. A file without connections: may name ones the config declares."`
	Dotenv      any `yaml:"dotenv" doc:"Files of KEY=VALUE lines (.env) whose variables every workflow's commands get, under the real environment: a path or a list, each a path relative to this file or {path, required: false}."`
	// Description and Metadata are for readers, as mcp-flowgate's repo
	// loader skips them (repo.rs, HARMLESS_TOP_LEVEL_KEYS).
	Description string `yaml:"description" doc:"What the file holds, for readers."`
	Metadata    any    `yaml:"metadata" doc:"Anything about the file, for readers and tools; not read."`
	// Include, Repos and Overrides are mcp-flowgate's ways of merging
	// other files and repositories into a gateway's configuration.
	Include   any `yaml:"include" dialect:"peer" doc:"mcp-flowgate's files merged into this one: only an empty list is accepted (chainrun reads one file; a workflow executor finds other workflows in the chains directory and beside the calling file)."`
	Repos     any `yaml:"repos" dialect:"peer" doc:"mcp-flowgate's repositories loaded with this file: only an empty list is accepted (point --chains-dir at a repository's workflows instead)."`
	Overrides any `yaml:"overrides" dialect:"peer" doc:"Accepted with a warning and ignored: which workflows of repos: this file shadows."`
}

// WorkflowKeys are the keys of one workflow, as references 000 and 003
// write them, in the order did-you-mean tries them: the walker decodes
// the plain ones, the workflow reader (pkg/chain/wfyaml) the others.
type WorkflowKeys struct {
	Title          string            `yaml:"title" doc:"A short title for lists and pictures."`
	Description    string            `yaml:"description" doc:"What the workflow does."`
	Tags           []string          `yaml:"tags" doc:"Labels for finding workflows."`
	InputSchema    map[string]any    `yaml:"inputSchema" doc:"JSON Schema of the inputs: --input values are converted to its types, defaults apply, additionalProperties: false rejects unknown inputs."`
	InitialState   string            `yaml:"initialState" doc:"The state a run begins in."`
	InitialContext map[string]any    `yaml:"initialContext" doc:"The context a run begins with (read as $.context.* and {context.x}); executors and output mappings add to it."`
	MaxChainDepth  int               `yaml:"maxChainDepth" doc:"Most transitions one run or resume takes on its own before it fails (default 50, at most 10000)."`
	States         any               `yaml:"states" doc:"The states, by name."`
	Agent          WorkflowAgentKeys `yaml:"agent" doc:"agent: {model: provider/model} lets that model decide agent decision points instead of pausing."`
	Output         string            `yaml:"output" doc:"The variable whose value is the run's output (default: the context)."`
	Budget         *Budget           `yaml:"budget" doc:"Caps on the run's model use."`
	Tools          any               `yaml:"tools" doc:"Tools the chain defines for its agent steps: each a description, the JSON Schema of its arguments and a cli, http, transform or file executor reading them as {args.NAME}."`
	Version        string            `yaml:"version" doc:"The workflow's version (free text; an ISO date is the convention): every run saves the whole definition it ran, so a changed file never changes a run under way."`
	Inputs         any               `yaml:"inputs" doc:"The inputs, each {type, required, default, description, enum} (the short form of inputSchema); their values also begin the context."`
	Verb           string            `yaml:"verb" doc:"What a capability does, one of mcp-flowgate's verbs (triage, diagnose, plan, implement, review, …); a cap.* workflow is named cap.<verb>.<name>."`
	Lifecycle      string            `yaml:"lifecycle" doc:"experimental, stable or deprecated (loading a deprecated workflow warns)."`
	Snippet        any               `yaml:"snippet" doc:"A capability's contract: {inputs, outputs}. inputs as in inputs:; outputs map each value the run returns (taken from its context) to its JSON Schema, checked when the run ends."`
	Skills         any               `yaml:"skills" doc:"Guidance fragments (subjects of the file's skills: library) shown with every decision of the workflow."`
	Blackboard     any               `yaml:"blackboard" doc:"The context's slots: a list of names, or each name's JSON Schema. An output mapping that writes another slot is warned of; a write to a typed slot is checked."`
	LinkFilter     string            `yaml:"linkFilter" doc:"The default of the states' linkFilter (byGuards or all)."`
	TimeoutMs      int64             `yaml:"timeoutMs" doc:"How long a run may take in all, in milliseconds; a run or resume that finds it passed moves to onTimeout's target."`
	OnTimeout      any               `yaml:"onTimeout" doc:"{target: STATE}: where a run goes once timeoutMs has passed."`
	EnableHumanAsk bool              `yaml:"enable_human_ask" dialect:"peer" doc:"Accepted with a warning: mcp-flowgate's ask_human self-loop; chainrun pauses at every decision point, where a person can answer."`
	HumanAskCap    int               `yaml:"human_ask_cap" dialect:"peer" doc:"Accepted with enable_human_ask."`
	Aliases        any               `yaml:"aliases" dialect:"peer" doc:"Accepted with a note (an earlier mcp-flowgate key): other names the gateway listed the workflow under; chainrun finds it by its own name."`
	Examples       any               `yaml:"examples" dialect:"peer" doc:"Accepted with a note (an earlier mcp-flowgate key): sample inputs for readers; chainrun runs none of them."`
}

// BranchTransition holds the keys of a state's transition: {branches}.
// It is exported for the front-ends whose states move by branches, which
// check a transition's keys against it and describe it in their schema.
type BranchTransition struct {
	Branches  []*Branch `yaml:"branches"`
	OnFailure string    `yaml:"on_failure"`
}

// WorkflowAgentKeys are the keys of a workflow's agent: {model}.
type WorkflowAgentKeys struct {
	Model string `yaml:"model" doc:"The model that decides (provider/model)."`
}

// ReadAs records what the dialect a workflow was read in says of its
// meaning at run time and in validation (LenientInputs,
// UnregisteredKinds).
func (c *Chain) ReadAs(dialect WorkflowDialect) {
	c.lenientInputs, c.unregisteredKinds = dialect.LenientInputs, dialect.UnregisteredKinds
}

// SetTimeoutUnread records that the state's timeout could not be read
// (reported): what it needs is then not judged (TimeoutUnread).
func (s *State) SetTimeoutUnread() { s.timeoutUnread = true }

// SetBranchesUnread records that the state's transition.branches could
// not be read (reported): whether they are empty is then not judged
// (BranchesUnread).
func (s *State) SetBranchesUnread() { s.branchesUnread = true }

// KnownKind reports whether name is a kind, or an alias of one.
func KnownKind(name string) bool {
	_, ok := kindOf(name)
	return ok
}

// ReportUnknownKind reports a step kind nothing registers at at, naming
// the step (who) and its key (word: type or kind), with the closest of
// kinds.
func ReportUnknownKind(d *yamlpos.Diags, at Pos, who, word, kind string, kinds []string) {
	reportUnknownKind(d, at, who, word, kind, kinds)
}

// DecodeReliability reads an executor's reliability: {retry, fallback}
// (mcp-flowgate's policy) into e, candidate reading each fallback.
func DecodeReliability(d *yamlpos.Diags, candidate func(n *yaml.Node, i int, prefix string) *Step, e *Step, v *yaml.Node, prefix string) {
	decodeReliability(d, candidate, e, v, prefix)
}

// TakeEvidence takes an executor's evidence: key out of its mapping n,
// returning the mapping without it and the evidence it declares.
func TakeEvidence(d *yamlpos.Diags, n *yaml.Node, prefix string) (*yaml.Node, *EvidenceDecl) {
	return takeEvidence(d, n, prefix)
}

// takeEvidence reads a transition executor's evidence: {kind, id,
// summary} (mcp-flowgate) and returns the executor without it, for the
// step decoder, which knows no such field.
func takeEvidence(d *yamlpos.Diags, n *yaml.Node, prefix string) (*yaml.Node, *EvidenceDecl) {
	ev := yamlpos.ValueOf(n, "evidence")
	if n.Kind != yaml.MappingNode || ev == nil {
		return n, nil
	}
	decl := &EvidenceDecl{}
	if ev = yamlpos.Deref(ev); ev.Kind != yaml.MappingNode {
		d.LooseErrorf(yamlpos.Of(ev), "%sevidence is a mapping: {kind: tests_passed}", prefix)
	} else if yamlpos.DecodeChecked(d, ev, prefix+"evidence: ", yamlpos.KeysOf[EvidenceDecl](), decl) && strings.TrimSpace(decl.Kind) == "" {
		d.LooseErrorf(yamlpos.Of(ev), "%sevidence needs the kind it records: {kind: tests_passed}", prefix)
	}
	m, _ := takeKey(n, "evidence")
	return m, decl
}

// takeKey is mapping n without key, and key's value (nil when n has
// none): a key read apart from the step it is written in.
func takeKey(n *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	v := yamlpos.ValueOf(n, key)
	if n.Kind != yaml.MappingNode || v == nil {
		return n, nil
	}
	m := *n
	m.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			m.Content = append(m.Content, n.Content[i], n.Content[i+1])
		}
	}
	return &m, v
}

// InputOrder is the order the workflow's inputs are listed in, as its
// file wrote them (SetInputOrder).
func (w *Workflow) InputOrder() []string { return w.inputOrder }

// UnregisteredKinds reports whether an executor of a kind no kind has
// loads with a warning (the dialect's UnregisteredKinds) instead of
// refusing the file.
func (c *Chain) UnregisteredKinds() bool { return c.unregisteredKinds }
