package wfyaml

import "github.com/chainrun/chainrun/pkg/chain"

// WorkflowFileKeys are the keys of a workflow file, which this package
// walks and the JSON Schema lists.
type WorkflowFileKeys struct {
	Version   string `yaml:"version" doc:"Your version of the chain (free text)."`
	Workflows any    `yaml:"workflows" doc:"Each workflow's name and its state machine."`
	// Audit is mcp-flowgate's audit sink: accepted so its files load,
	// while every run keeps its own event log.
	Audit any `yaml:"audit" dialect:"peer" doc:"Accepted with a warning and ignored (mcp-flowgate's audit sink): every run keeps its own event log, events.jsonl."`
	// Skills is the file's library of guidance fragments.
	Skills map[string]*chain.Fragment `yaml:"skills" doc:"Guidance fragments by subject (review.style.house-voice): {verb, lifecycle, body, title, source, hash}; workflows, states and transitions name them in their skills: lists, and decisions show them."`
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
// the plain ones, this package's reader the others.
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
	Budget         *chain.Budget     `yaml:"budget" doc:"Caps on the run's model use."`
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

// WorkflowAgentKeys are the keys of a workflow's agent: {model}.
type WorkflowAgentKeys struct {
	Model string `yaml:"model" doc:"The model that decides (provider/model)."`
}
