package chain

import (
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// workflowFile holds the keys of a workflow file.
type workflowFile struct {
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

// workflowKeys are the keys of one workflow, as references 000 and 003
// write them, in the order did-you-mean tries them; walk decodes the plain
// ones, decodeWorkflow the others.
type workflowKeys struct {
	Title          string         `yaml:"title" doc:"A short title for lists and pictures."`
	Description    string         `yaml:"description" doc:"What the workflow does."`
	Tags           []string       `yaml:"tags" doc:"Labels for finding workflows."`
	InputSchema    map[string]any `yaml:"inputSchema" doc:"JSON Schema of the inputs: --input values are converted to its types, defaults apply, additionalProperties: false rejects unknown inputs."`
	InitialState   string         `yaml:"initialState" doc:"The state a run begins in."`
	InitialContext map[string]any `yaml:"initialContext" doc:"The context a run begins with (read as $.context.* and {context.x}); executors and output mappings add to it."`
	MaxChainDepth  int            `yaml:"maxChainDepth" doc:"Most transitions one run or resume takes on its own before it fails (default 50, at most 10000)."`
	States         any            `yaml:"states" doc:"The states, by name."`
	Agent          workflowAgent  `yaml:"agent" doc:"agent: {model: provider/model} lets that model decide agent decision points instead of pausing."`
	Output         string         `yaml:"output" doc:"The variable whose value is the run's output (default: the context)."`
	Budget         *Budget        `yaml:"budget" doc:"Caps on the run's model use."`
	Tools          any            `yaml:"tools" doc:"Tools the chain defines for its agent steps: each a description, the JSON Schema of its arguments and a cli, http, transform or file executor reading them as {args.NAME}."`
	Version        string         `yaml:"version" doc:"The workflow's version (free text; an ISO date is the convention): every run saves the whole definition it ran, so a changed file never changes a run under way."`
	Inputs         any            `yaml:"inputs" doc:"The inputs, each {type, required, default, description, enum} (the short form of inputSchema); their values also begin the context."`
	Verb           string         `yaml:"verb" doc:"What a capability does, one of mcp-flowgate's verbs (triage, diagnose, plan, implement, review, …); a cap.* workflow is named cap.<verb>.<name>."`
	Lifecycle      string         `yaml:"lifecycle" doc:"experimental, stable or deprecated (loading a deprecated workflow warns)."`
	Snippet        any            `yaml:"snippet" doc:"A capability's contract: {inputs, outputs}. inputs as in inputs:; outputs map each value the run returns (taken from its context) to its JSON Schema, checked when the run ends."`
	Skills         any            `yaml:"skills" doc:"Guidance fragments (subjects of the file's skills: library) shown with every decision of the workflow."`
	Blackboard     any            `yaml:"blackboard" doc:"The context's slots: a list of names, or each name's JSON Schema. An output mapping that writes another slot is warned of; a write to a typed slot is checked."`
	LinkFilter     string         `yaml:"linkFilter" doc:"The default of the states' linkFilter (byGuards or all)."`
	TimeoutMs      int64          `yaml:"timeoutMs" doc:"How long a run may take in all, in milliseconds; a run or resume that finds it passed moves to onTimeout's target."`
	OnTimeout      any            `yaml:"onTimeout" doc:"{target: STATE}: where a run goes once timeoutMs has passed."`
	EnableHumanAsk bool           `yaml:"enable_human_ask" dialect:"peer" doc:"Accepted with a warning: mcp-flowgate's ask_human self-loop; chainrun pauses at every decision point, where a person can answer."`
	HumanAskCap    int            `yaml:"human_ask_cap" dialect:"peer" doc:"Accepted with enable_human_ask."`
	Aliases        any            `yaml:"aliases" dialect:"peer" doc:"Accepted with a note (an earlier mcp-flowgate key): other names the gateway listed the workflow under; chainrun finds it by its own name."`
	Examples       any            `yaml:"examples" dialect:"peer" doc:"Accepted with a note (an earlier mcp-flowgate key): sample inputs for readers; chainrun runs none of them."`
}

// workflowAgent holds the keys of a workflow's agent: {model}.
type workflowAgent struct {
	Model string `yaml:"model" doc:"The model that decides (provider/model)."`
}

// DecodeWorkflowFile reads a `workflows:` file, chainrun's state
// workflows (references 000 and 003), as dialect reads it: one Chain per
// workflow, in the order written. The zero dialect is chainrun's own
// reading; a front-end passes its peer's.
func DecodeWorkflowFile(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain {
	var file workflowFile
	var list, registry *yaml.Node
	library := map[string]*Fragment{}
	var lib fileLibrary
	yamlpos.Walk(d, yamlpos.MappingPairs(d, root, ""), &file, nil, yamlpos.WalkOpts{Extensions: true, Hint: " (a workflow file holds version and workflows)"}, func(k, v *yaml.Node) bool {
		switch k.Value {
		case "workflows":
			list = v
			return true
		case "skills":
			library = decodeFragments(d, v)
			return true
		case "scripts":
			lib.scripts = decodeScripts(d, v)
			return true
		case "connections":
			lib.connections = decodeConnections(d, v)
			return true
		case "dotenv":
			lib.dotenv = decodeDotenv(d, v)
			return true
		case "capabilities":
			// read only for the executors that name one; its exposure to
			// a gateway's clients is said to be ignored
			registry = v
			d.Warnf(yamlpos.Of(k), "capabilities: the gateway's capability registry is read only for executors that name one ({capability: NAME}); exposing them to a gateway's clients is ignored")
			return true
		default:
			return dialectKey(d, &file, k, "", " (a workflow file holds version and workflows)", dialect.FileKey != nil, func() bool { return dialect.FileKey(d, k, v) })
		}
	})
	if list == nil || list.Kind != yaml.MappingNode || len(list.Content) == 0 {
		at := yamlpos.Of(root)
		if list != nil {
			at = yamlpos.Of(list)
		}
		if list != nil && yamlpos.Deref(list).Kind == yaml.SequenceNode {
			// the list form of mcp-flowgate's design notes, which its
			// runtime never read (it reads workflows as a mapping only)
			d.Errorf(at, "workflows must map each workflow's name to its definition, not list them: write each item's definitionId as its key (mcp-flowgate too reads only that mapping, and loads no workflow from a list)")
			return nil
		}
		if list != nil && yamlpos.Deref(list).Kind == yaml.MappingNode {
			// a gateway's configuration skeleton (workflows: {}) holds
			// no workflow: nothing to validate or run
			d.Errorf(at, "workflows is empty: the file holds no workflow to run; map each workflow's name to its definition")
			return nil
		}
		d.Errorf(at, "workflows must map each workflow's name to its definition")
		return nil
	}
	resolveCapabilityRefs(d, registry, list)
	var out []*Chain
	for _, p := range yamlpos.MappingPairs(d, list, "workflows: ") {
		c := decodeWorkflow(d, p.Key, yamlpos.Deref(p.Value), dialect)
		if c != nil {
			c.Workflow.Library = library
			if c.Version == "" {
				c.Version = file.Version
			}
			c.Scripts, c.Connections, c.Dotenv = lib.scripts, lib.connections, lib.dotenv
			out = append(out, c)
		}
	}
	return out
}

func decodeWorkflow(d *yamlpos.Diags, key, n *yaml.Node, dialect WorkflowDialect) *Chain {
	w := &Workflow{byName: map[string]*State{}, FieldPos: map[string]Pos{}}
	c := &Chain{Name: key.Value, Pos: yamlpos.Of(key), Workflow: w, lenientInputs: dialect.LenientInputs, unregisteredKinds: dialect.UnregisteredKinds}
	if n.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(n), "workflow %q must be a mapping with initialState and states", key.Value)
		return nil
	}
	prefix := "workflow " + quote(key.Value) + ": "
	if dialect.CheckWorkflow != nil {
		dialect.CheckWorkflow(d, n, prefix)
	}
	var keys workflowKeys
	yamlpos.Walk(d, yamlpos.MappingPairs(d, n, prefix), &keys, w.FieldPos, yamlpos.WalkOpts{Prefix: prefix, Extensions: true, Peer: true}, func(k, v *yaml.Node) bool {
		switch k.Value {
		case "inputSchema":
			var schema map[string]any
			if yamlpos.DecodeInto(d, v, &schema) {
				w.InputSchema, _ = NormalizeYAML(schema).(map[string]any)
			}
			if props := yamlpos.ValueOf(v, "properties"); props != nil && yamlpos.Deref(props).Kind == yaml.MappingNode {
				for _, pp := range yamlpos.MappingPairs(d, yamlpos.Deref(props), "") {
					w.inputOrder = append(w.inputOrder, pp.Key.Value)
				}
			}
		case "output":
			yamlpos.DecodeInto(d, v, &c.Output)
			c.OutputPos = yamlpos.Of(v)
		case "budget":
			c.Budget = &Budget{}
			yamlpos.DecodeValue(d, v, c.Budget, "budget: ")
		case "agent":
			yamlpos.DecodeChecked(d, v, prefix+"agent: ", yamlpos.KeysOf[workflowAgent](), &keys.Agent)
			w.AgentModel = keys.Agent.Model
		case "states":
			decodeStates(d, c, v, prefix, dialect)
		case "tools":
			c.Tools = decodeTools(d, v)
		case "version":
			yamlpos.DecodeInto(d, v, &c.Version)
		case "inputs":
			decodeWorkflowInputs(d, w, v, prefix)
		case "snippet":
			decodeSnippet(d, w, v, prefix)
		case "skills":
			w.Skills = decodeSkillRefs(d, v, prefix+"skills: ")
		case "blackboard":
			decodeBlackboard(d, w, v, prefix)
		case "timeoutMs":
			workflowTimeout(d, w, v, prefix+"timeoutMs: ")
		case "onTimeout":
			decodeOnTimeout(d, w, v, prefix)
		case "handlers":
			d.LooseErrorf(yamlpos.Of(k), "%shandlers: lifecycle handlers belong to DAG chains; a workflow ends in its terminal states: give them an onEnter executor (a state with outcome: failed for a failure)", prefix)
		default:
			return dialectKey(d, &keys, k, prefix, "", dialect.WorkflowKey != nil, func() bool { return dialect.WorkflowKey(d, c, k, v, prefix) })
		}
		return true
	})
	w.Title, c.Description, w.Tags, w.InitialState, w.MaxChainDepth = keys.Title, keys.Description, keys.Tags, keys.InitialState, keys.MaxChainDepth
	w.InitialContext = keys.InitialContext
	w.Cap.Verb, w.Cap.Lifecycle, w.LinkFilter = keys.Verb, keys.Lifecycle, keys.LinkFilter
	if _, read := w.FieldPos["maxChainDepth"]; !read {
		// not written, or not a number (reported): the default
		w.MaxChainDepth = DefaultMaxChainDepth
	}
	return c
}

func decodeStates(d *yamlpos.Diags, c *Chain, v *yaml.Node, prefix string, dialect WorkflowDialect) {
	w := c.Workflow
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%sstates must map each state's name to its definition", prefix)
		return
	}
	for _, p := range yamlpos.MappingPairs(d, v, prefix+"states: ") {
		s := decodeState(d, c, p.Key, yamlpos.Deref(p.Value), dialect)
		if s == nil {
			continue
		}
		w.States = append(w.States, s)
		w.byName[s.Name] = s
	}
}

func decodeState(d *yamlpos.Diags, c *Chain, key, n *yaml.Node, dialect WorkflowDialect) *State {
	s := &State{Name: key.Value, Pos: yamlpos.Of(key), FieldPos: map[string]Pos{}}
	prefix := "state " + quote(s.Name) + ": "
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return s // `done:` with nothing under it: validation says what is missing
	}
	if n.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(n), "%sa state is a mapping (goal, guidance, transitions, task, terminal)", prefix)
		return nil
	}
	yamlpos.Walk(d, yamlpos.MappingPairs(d, n, prefix), s, s.FieldPos, yamlpos.WalkOpts{Prefix: prefix, Peer: true}, func(k, v *yaml.Node) bool {
		switch k.Value {
		case "transitions":
			decodeTransitions(d, c, s, v, prefix)
		case "task":
			s.Task = decodeExecutor(d, c, v, "state", s.Name, "task", prefix+"task: ")
		case "transition":
			decodeBranches(d, s, v, prefix)
		case "timeout":
			var text string
			if yamlpos.DecodeInto(d, v, &text) {
				dur, err := time.ParseDuration(text)
				if err != nil || dur <= 0 {
					d.LooseErrorf(yamlpos.Of(v), "%stimeout %q: write a duration such as 30m, 2h or 90s", prefix, text)
					s.timeoutUnread = true
				}
				s.Timeout = dur
			}
		case "skills":
			s.Skills = decodeSkillRefs(d, v, prefix+"skills: ")
		case "onEnter":
			decodeOnEnter(d, c, s, v, prefix)
		case "slots":
			s.Slots = decodeSlots(d, v, prefix+"slots: ")
		default:
			return dialectKey(d, s, k, prefix, "", dialect.StateKey != nil, func() bool { return dialect.StateKey(d, s, k, v, prefix) })
		}
		return true
	})
	s.Guidance = strings.TrimSpace(s.Guidance)
	if s.Actor != "" {
		for _, t := range s.Transitions {
			if _, written := t.FieldPos["actor"]; !written {
				t.Actor = s.Actor
			}
		}
	}
	return s
}

func decodeTransitions(d *yamlpos.Diags, c *Chain, s *State, v *yaml.Node, prefix string) {
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%stransitions must map each transition's name to its target, actor and executor", prefix)
		return
	}
	for _, p := range yamlpos.MappingPairs(d, v, prefix+"transitions: ") {
		k, n := p.Key, yamlpos.Deref(p.Value)
		t := &Transition{Name: k.Value, Pos: yamlpos.Of(k), FieldPos: map[string]Pos{}}
		var rel *yaml.Node
		tprefix := prefix + "transition " + quote(t.Name) + ": "
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "%sa transition is a mapping with target and actor", tprefix)
			continue
		}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, tprefix), t, t.FieldPos, yamlpos.WalkOpts{Prefix: tprefix, Peer: true}, func(k, v *yaml.Node) bool {
			switch k.Value {
			case "executor":
				v, t.Evidence = takeEvidence(d, v, tprefix+"executor: ")
				t.Executor = decodeExecutor(d, c, v, "transition", t.Name, "executor", tprefix+"executor: ")
			case "guards":
				t.Guards = decodeGuards(d, v, tprefix)
			case "branches":
				t.Branches = decodeTransitionBranches(d, v, tprefix)
			case "output":
				t.Output = decodeOutputMappings(d, v, tprefix)
			case "skills":
				t.Skills = decodeSkillRefs(d, v, tprefix+"skills: ")
			case "reliability":
				rel = v
			default:
				return false
			}
			return true
		})
		if rel != nil {
			if t.Executor == nil {
				// mcp-flowgate reads the policy only beside an executor
				// (runtime_submit.rs): a file with one runs there
				d.Warnf(yamlpos.Of(rel), "%sreliability applies to an executor: the transition has none, so it is not read (as in mcp-flowgate)", tprefix)
			} else {
				decodeReliability(d, executorCandidates(d, c, t.Executor), t.Executor, rel, tprefix)
			}
		}
		if t.Actor == "" {
			// untagged transitions wait for a decision: only those marked
			// deterministic run on their own (reference 000)
			t.Actor = ActorAgent
		}
		s.Transitions = append(s.Transitions, t)
	}
}

// decodeExecutor reads a transition's executor or a state's task: a step
// of any kind, named after its transition or state (id); messages call
// it "owner id role" (transition "go" executor, state "s" task).
func decodeExecutor(d *yamlpos.Diags, c *Chain, n *yaml.Node, owner, id, role, prefix string) *Step {
	if n.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(n), "%sa step definition is a mapping with kind (cli, http, transform, agent…) and its fields", prefix)
		return nil
	}
	s, ok := DecodeStep(d, n, prefix)
	if !ok {
		return nil
	}
	s.ID, s.owner, s.role = id, owner, role
	if _, known := kindOf(s.Type); !known {
		if c.unregisteredKinds && s.Type != "" && didYouMean(s.Type, Kinds()) == "" {
			unregisteredKind(d, s)
		} else {
			reportUnknownKind(d, s.At("type"), s.Subject(), "kind", s.Type, Kinds())
		}
	}
	c.Steps = append(c.Steps, s)
	return s
}
