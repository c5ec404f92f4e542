package wfyaml

import (
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/envfiles"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

func init() {
	chain.RegisterWorkflowReader(readFile)
	chain.RegisterConnectionsReader(DecodeConnections)
}

// readFile reads a workflows: file as dialect reads it (the reader
// chain.DecodeWorkflowFile calls): one Chain per workflow, in the order
// written.
func readFile(d *yamlpos.Diags, root *yaml.Node, dialect chain.WorkflowDialect) []*chain.Chain {
	var file WorkflowFileKeys
	var list, registry *yaml.Node
	library := map[string]*chain.Fragment{}
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
			lib.connections = DecodeConnections(d, v)
			return true
		case "dotenv":
			lib.dotenv = envfiles.Decode(d, v)
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
	var out []*chain.Chain
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

func decodeWorkflow(d *yamlpos.Diags, key, n *yaml.Node, dialect chain.WorkflowDialect) *chain.Chain {
	w := chain.NewWorkflow()
	c := &chain.Chain{Name: key.Value, Pos: yamlpos.Of(key), Workflow: w}
	c.ReadAs(dialect)
	if n.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(n), "workflow %q must be a mapping with initialState and states", key.Value)
		return nil
	}
	prefix := "workflow " + chain.Quote(key.Value) + ": "
	if dialect.CheckWorkflow != nil {
		dialect.CheckWorkflow(d, n, prefix)
	}
	var keys WorkflowKeys
	yamlpos.Walk(d, yamlpos.MappingPairs(d, n, prefix), &keys, w.FieldPos, yamlpos.WalkOpts{Prefix: prefix, Extensions: true, Peer: true}, func(k, v *yaml.Node) bool {
		switch k.Value {
		case "inputSchema":
			var schema map[string]any
			if yamlpos.DecodeInto(d, v, &schema) {
				w.InputSchema, _ = chain.NormalizeYAML(schema).(map[string]any)
			}
			if props := yamlpos.ValueOf(v, "properties"); props != nil && yamlpos.Deref(props).Kind == yaml.MappingNode {
				order := w.InputOrder()
				for _, pp := range yamlpos.MappingPairs(d, yamlpos.Deref(props), "") {
					order = append(order, pp.Key.Value)
				}
				w.SetInputOrder(order...)
			}
		case "output":
			yamlpos.DecodeInto(d, v, &c.Output)
			c.OutputPos = yamlpos.Of(v)
		case "budget":
			c.Budget = &chain.Budget{}
			yamlpos.DecodeValue(d, v, c.Budget, "budget: ")
		case "agent":
			yamlpos.DecodeChecked(d, v, prefix+"agent: ", yamlpos.KeysOf[WorkflowAgentKeys](), &keys.Agent)
			w.AgentModel = keys.Agent.Model
		case "states":
			decodeStates(d, c, v, prefix, dialect)
		case "tools":
			c.Tools = chain.DecodeTools(d, v)
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
		w.MaxChainDepth = chain.DefaultMaxChainDepth
	}
	return c
}

func decodeStates(d *yamlpos.Diags, c *chain.Chain, v *yaml.Node, prefix string, dialect chain.WorkflowDialect) {
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
		w.AddState(s) // MappingPairs left out a name given twice
	}
}

func decodeState(d *yamlpos.Diags, c *chain.Chain, key, n *yaml.Node, dialect chain.WorkflowDialect) *chain.State {
	s := &chain.State{Name: key.Value, Pos: yamlpos.Of(key), FieldPos: map[string]chain.Pos{}}
	prefix := "state " + chain.Quote(s.Name) + ": "
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
			DecodeBranches(d, s, v, prefix)
		case "timeout":
			var text string
			if yamlpos.DecodeInto(d, v, &text) {
				dur, err := time.ParseDuration(text)
				if err != nil || dur <= 0 {
					d.LooseErrorf(yamlpos.Of(v), "%stimeout %q: write a duration such as 30m, 2h or 90s", prefix, text)
					s.SetTimeoutUnread()
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

func decodeTransitions(d *yamlpos.Diags, c *chain.Chain, s *chain.State, v *yaml.Node, prefix string) {
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%stransitions must map each transition's name to its target, actor and executor", prefix)
		return
	}
	for _, p := range yamlpos.MappingPairs(d, v, prefix+"transitions: ") {
		k, n := p.Key, yamlpos.Deref(p.Value)
		t := &chain.Transition{Name: k.Value, Pos: yamlpos.Of(k), FieldPos: map[string]chain.Pos{}}
		var rel *yaml.Node
		tprefix := prefix + "transition " + chain.Quote(t.Name) + ": "
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "%sa transition is a mapping with target and actor", tprefix)
			continue
		}
		yamlpos.Walk(d, yamlpos.MappingPairs(d, n, tprefix), t, t.FieldPos, yamlpos.WalkOpts{Prefix: tprefix, Peer: true}, func(k, v *yaml.Node) bool {
			switch k.Value {
			case "executor":
				v, t.Evidence = chain.TakeEvidence(d, v, tprefix+"executor: ")
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
				chain.DecodeReliability(d, executorCandidates(d, c, "transition", t.Executor), t.Executor, rel, tprefix)
			}
		}
		if t.Actor == "" {
			// untagged transitions wait for a decision: only those marked
			// deterministic run on their own (reference 000)
			t.Actor = chain.ActorAgent
		}
		s.Transitions = append(s.Transitions, t)
	}
}

// decodeExecutor reads a transition's executor or a state's task: a step
// of any kind, named after its transition or state (id); messages call
// it "owner id role" (transition "go" executor, state "s" task).
func decodeExecutor(d *yamlpos.Diags, c *chain.Chain, n *yaml.Node, owner, id, role, prefix string) *chain.Step {
	if n.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(n), "%sa step definition is a mapping with kind (cli, http, transform, agent…) and its fields", prefix)
		return nil
	}
	s, ok := chain.DecodeStep(d, n, prefix)
	if !ok {
		return nil
	}
	s.ID = id
	s.Place(owner, role)
	if !chain.KnownKind(s.Type) {
		if c.UnregisteredKinds() && s.Type != "" && chain.DidYouMean(s.Type, chain.Kinds()) == "" {
			chain.UnregisteredKind(d, s)
		} else {
			chain.ReportUnknownKind(d, s.At("type"), s.Who(), "kind", s.Type, chain.Kinds())
		}
	}
	c.Steps = append(c.Steps, s)
	return s
}

// fileLibrary is what a workflow file declares for all its workflows.
type fileLibrary struct {
	scripts     map[string]*chain.Script
	connections map[string]*chain.Connection
	dotenv      []envfiles.File
}
