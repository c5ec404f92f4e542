package chain

import (
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v4"
)

// The keys of a workflow file, its workflows, states, transitions and
// branches, as references 000 and 003 write them.
var (
	workflowFileFields   = []string{"version", "workflows"}
	workflowFields       = []string{"title", "description", "tags", "inputSchema", "initialState", "maxChainDepth", "states", "agent", "output", "budget", "tools"}
	stateFields          = []string{"goal", "guidance", "terminal", "transitions", "task", "transition", "timeout", "on_timeout"}
	transitionFields     = []string{"target", "actor", "executor", "condition", "title"}
	branchTransitionKeys = []string{"branches"}
	branchFields         = []string{"operator", "when", "goto", "compose"}
	composeFields        = []string{"with_var", "strategy"}
	agentFields          = []string{"model"}
)

// decodeWorkflowFile reads a `workflows:` file: one Chain per workflow,
// in the order written.
func decodeWorkflowFile(d *diags, root *yaml.Node) []*Chain {
	var version string
	var list *yaml.Node
	for _, p := range mappingPairs(d, root, "") {
		switch k, v := p.key, deref(p.value); k.Value {
		case "version":
			decodeInto(d, v, &version)
		case "workflows":
			list = v
		default:
			if !strings.HasPrefix(k.Value, "x-") {
				d.errorf(posOf(k), "unknown field %q%s (a workflow file holds version and workflows)", k.Value, didYouMean(k.Value, workflowFileFields))
			}
		}
	}
	if list == nil || list.Kind != yaml.MappingNode || len(list.Content) == 0 {
		at := posOf(root)
		if list != nil {
			at = posOf(list)
		}
		d.errorf(at, "workflows must map each workflow's name to its definition")
		return nil
	}
	var out []*Chain
	for _, p := range mappingPairs(d, list, "workflows: ") {
		c := decodeWorkflow(d, p.key, deref(p.value))
		if c != nil {
			c.Version = version
			out = append(out, c)
		}
	}
	return out
}

func decodeWorkflow(d *diags, key, n *yaml.Node) *Chain {
	w := &Workflow{byName: map[string]*State{}, FieldPos: map[string]Pos{}}
	c := &Chain{Name: key.Value, Pos: posOf(key), Workflow: w}
	if n.Kind != yaml.MappingNode {
		d.errorf(posOf(n), "workflow %q must be a mapping with initialState and states", key.Value)
		return nil
	}
	prefix := "workflow " + quote(key.Value) + ": "
	for _, p := range mappingPairs(d, n, prefix) {
		k, v := p.key, deref(p.value)
		w.FieldPos[k.Value] = posOf(k)
		switch k.Value {
		case "title":
			decodeInto(d, v, &w.Title)
		case "description":
			decodeInto(d, v, &c.Description)
		case "tags":
			decodeInto(d, v, &w.Tags)
		case "inputSchema":
			var schema map[string]any
			if decodeInto(d, v, &schema) {
				w.InputSchema, _ = normalizeYAML(schema).(map[string]any)
			}
			if props := valueOf(v, "properties"); props != nil && deref(props).Kind == yaml.MappingNode {
				for _, pp := range mappingPairs(d, deref(props), "") {
					w.inputOrder = append(w.inputOrder, pp.key.Value)
				}
			}
		case "initialState":
			decodeInto(d, v, &w.InitialState)
		case "maxChainDepth":
			decodeInto(d, v, &w.MaxChainDepth)
		case "output":
			decodeInto(d, v, &c.Output)
			c.OutputPos = posOf(v)
		case "budget":
			c.Budget = &Budget{}
			decodeInto(d, v, c.Budget)
		case "agent":
			checkKeys(d, v, prefix+"agent: ", agentFields)
			var a struct {
				Model string `yaml:"model"`
			}
			decodeInto(d, v, &a)
			w.AgentModel = a.Model
		case "states":
			decodeStates(d, c, v, prefix)
		case "tools":
			c.Tools = decodeTools(d, v)
		default:
			if !strings.HasPrefix(k.Value, "x-") {
				d.errorf(posOf(k), "%sunknown field %q%s", prefix, k.Value, didYouMean(k.Value, workflowFields))
			}
		}
	}
	if _, set := keysOf(n)["maxChainDepth"]; !set {
		w.MaxChainDepth = DefaultMaxChainDepth
	}
	return c
}

// keysOf maps a mapping's keys to their value nodes.
func keysOf(n *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = n.Content[i+1]
	}
	return out
}

// checkKeys reports every key of mapping n that is not one of known.
func checkKeys(d *diags, n *yaml.Node, prefix string, known []string) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for _, p := range mappingPairs(d, n, prefix) {
		if !slices.Contains(known, p.key.Value) {
			d.errorf(posOf(p.key), "%sunknown field %q%s", prefix, p.key.Value, didYouMean(p.key.Value, known))
		}
	}
}

func decodeStates(d *diags, c *Chain, v *yaml.Node, prefix string) {
	w := c.Workflow
	if v.Kind != yaml.MappingNode {
		d.errorf(posOf(v), "%sstates must map each state's name to its definition", prefix)
		return
	}
	for _, p := range mappingPairs(d, v, prefix+"states: ") {
		s := decodeState(d, c, p.key, deref(p.value))
		if s == nil {
			continue
		}
		w.States = append(w.States, s)
		w.byName[s.Name] = s
	}
}

func decodeState(d *diags, c *Chain, key, n *yaml.Node) *State {
	s := &State{Name: key.Value, Pos: posOf(key), FieldPos: map[string]Pos{}}
	prefix := "state " + quote(s.Name) + ": "
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return s // `done:` with nothing under it: validation says what is missing
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(posOf(n), "%sa state is a mapping (goal, guidance, transitions, task, terminal)", prefix)
		return nil
	}
	for _, p := range mappingPairs(d, n, prefix) {
		k, v := p.key, deref(p.value)
		s.FieldPos[k.Value] = posOf(k)
		switch k.Value {
		case "goal":
			decodeInto(d, v, &s.Goal)
		case "guidance":
			decodeInto(d, v, &s.Guidance)
			s.Guidance = strings.TrimSpace(s.Guidance)
		case "terminal":
			decodeInto(d, v, &s.Terminal)
		case "transitions":
			decodeTransitions(d, c, s, v, prefix)
		case "task":
			s.Task = decodeExecutor(d, c, v, "state", s.Name, "task", prefix+"task: ")
		case "transition":
			decodeBranches(d, s, v, prefix)
		case "timeout":
			var text string
			if decodeInto(d, v, &text) {
				dur, err := time.ParseDuration(text)
				if err != nil || dur <= 0 {
					d.errorf(posOf(v), "%stimeout %q: write a duration such as 30m, 2h or 90s", prefix, text)
				}
				s.Timeout = dur
			}
		case "on_timeout":
			decodeInto(d, v, &s.OnTimeout)
		default:
			d.errorf(posOf(k), "%sunknown field %q%s", prefix, k.Value, didYouMean(k.Value, stateFields))
		}
	}
	return s
}

func decodeTransitions(d *diags, c *Chain, s *State, v *yaml.Node, prefix string) {
	if v.Kind != yaml.MappingNode {
		d.errorf(posOf(v), "%stransitions must map each transition's name to its target, actor and executor", prefix)
		return
	}
	for _, p := range mappingPairs(d, v, prefix+"transitions: ") {
		k, n := p.key, deref(p.value)
		t := &Transition{Name: k.Value, Pos: posOf(k), FieldPos: map[string]Pos{}}
		tprefix := prefix + "transition " + quote(t.Name) + ": "
		if n.Kind != yaml.MappingNode {
			d.errorf(posOf(n), "%sa transition is a mapping with target and actor", tprefix)
			continue
		}
		for _, tp := range mappingPairs(d, n, tprefix) {
			tk, tv := tp.key, deref(tp.value)
			t.FieldPos[tk.Value] = posOf(tk)
			switch tk.Value {
			case "target":
				decodeInto(d, tv, &t.Target)
			case "actor":
				decodeInto(d, tv, &t.Actor)
			case "title":
				decodeInto(d, tv, &t.Title)
			case "condition":
				decodeInto(d, tv, &t.Condition)
			case "executor":
				t.Executor = decodeExecutor(d, c, tv, "transition", t.Name, "executor", tprefix+"executor: ")
			default:
				d.errorf(posOf(tk), "%sunknown field %q%s", tprefix, tk.Value, didYouMean(tk.Value, transitionFields))
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
func decodeExecutor(d *diags, c *Chain, n *yaml.Node, owner, id, role, prefix string) *Step {
	if n.Kind != yaml.MappingNode {
		d.errorf(posOf(n), "%sa step definition is a mapping with kind (cli, http, transform, agent…) and its fields", prefix)
		return nil
	}
	s, ok := decodeStep(d, n, prefix)
	if !ok {
		return nil
	}
	if _, known := kindOf(s.Type); !known {
		d.reportUnknownKind(s.At("type"), owner+" "+quote(id)+" "+role, "kind", s.Type, Kinds())
	}
	s.ID = id
	c.Steps = append(c.Steps, s)
	return s
}

func decodeBranches(d *diags, s *State, v *yaml.Node, prefix string) {
	prefix += "transition: "
	if v.Kind != yaml.MappingNode {
		d.errorf(posOf(v), "%stransition holds branches: a list of {operator, when, goto}", prefix)
		return
	}
	checkKeys(d, v, prefix, branchTransitionKeys)
	list := valueOf(v, "branches")
	if list == nil {
		d.errorf(posOf(v), "%sbranches are required", prefix)
		return
	}
	list = deref(list)
	if list.Kind != yaml.SequenceNode {
		d.errorf(posOf(list), "%sbranches must be a list of {operator, when, goto}", prefix)
		return
	}
	for _, n := range list.Content {
		n = deref(n)
		if n.Kind != yaml.MappingNode {
			d.errorf(posOf(n), "%sa branch is a mapping with operator, when and goto", prefix)
			continue
		}
		checkKeys(d, n, prefix+"branch: ", branchFields)
		if cn := valueOf(n, "compose"); cn != nil {
			checkKeys(d, deref(cn), prefix+"compose: ", composeFields)
		}
		b := &Branch{Pos: posOf(n)}
		// unknown keys were reported above, with suggestions
		if err := n.Load(b); err != nil {
			d.yamlError(err, posOf(n), nil, prefix+"branch: ")
			continue
		}
		s.Branches = append(s.Branches, b)
	}
}

func quote(s string) string { return `"` + s + `"` }
