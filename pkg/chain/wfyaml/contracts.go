package wfyaml

import (
	"fmt"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	yaml "go.yaml.in/yaml/v4"
)

// This file reads the keys mcp-flowgate's v0.6 added to workflows,
// states and transitions: capabilities' contracts (verb, lifecycle,
// snippet), the short form of inputs, guidance fragments (skills), the
// blackboard, onEnter, state slots, reliability and workflow timeouts.

// decodeSkillRefs reads a skills: list of fragment subjects.
func decodeSkillRefs(d *yamlpos.Diags, v *yaml.Node, prefix string) chain.SkillRefs {
	refs := chain.SkillRefs{Pos: yamlpos.Of(v)}
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Value != "" && v.Tag != "!!null" {
			refs.Subjects = []string{v.Value}
		}
	case yaml.SequenceNode:
		for _, n := range v.Content {
			n = yamlpos.Deref(n)
			if n.Kind != yaml.ScalarNode || n.Value == "" {
				d.Errorf(yamlpos.Of(n), "%sa skill is named by its subject (review.style.house-voice)", prefix)
				continue
			}
			refs.Subjects = append(refs.Subjects, n.Value)
		}
	default:
		d.Errorf(yamlpos.Of(v), "%sa list of skill subjects", prefix)
	}
	return refs
}

// decodeShortInputs reads v0.6 `inputs:` (and a snippet's inputs): each
// input's JSON Schema with required: true|false beside it, or a bare
// type. It returns the equivalent inputSchema and the names in order.
func decodeShortInputs(d *yamlpos.Diags, v *yaml.Node, prefix string) (map[string]any, []string) {
	if v.Kind != yaml.MappingNode {
		if v.Tag != "!!null" {
			d.Errorf(yamlpos.Of(v), "%sinputs map each input's name to its schema ({type, required, default, description})", prefix)
		}
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	props := map[string]any{}
	var required, order []string
	for _, p := range yamlpos.MappingPairs(d, v, prefix) {
		name, n := p.Key.Value, yamlpos.Deref(p.Value)
		if colonInName(d, p.Key, prefix) {
			continue
		}
		order = append(order, name)
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			props[name] = map[string]any{"type": n.Value}
			continue
		}
		var spec map[string]any
		if !yamlpos.DecodeInto(d, n, &spec) {
			continue
		}
		spec, _ = chain.NormalizeYAML(spec).(map[string]any)
		if spec == nil {
			spec = map[string]any{}
		}
		if r, ok := spec["required"]; ok {
			if b, isBool := r.(bool); !isBool {
				d.Errorf(yamlpos.Of(n), "%sinput %q: required is true or false", prefix, name)
			} else if b {
				required = append(required, name)
			}
			delete(spec, "required")
		}
		props[name] = spec
	}
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema, order
}

// decodeSnippet reads a capability's contract: {inputs, outputs}, both
// required (an empty {} declares none).
func decodeSnippet(d *yamlpos.Diags, w *chain.Workflow, v *yaml.Node, prefix string) {
	prefix += "snippet: "
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%sa snippet is {inputs, outputs}", prefix)
		return
	}
	yamlpos.CheckKeys(d, v, prefix, []string{"inputs", "outputs"})
	in, out := yamlpos.ValueOf(v, "inputs"), yamlpos.ValueOf(v, "outputs")
	if in == nil || out == nil {
		d.Errorf(yamlpos.Of(v), "%sinputs and outputs are both required (write {} for none)", prefix)
	}
	if in != nil {
		decodeWorkflowInputs(d, w, yamlpos.Deref(in), prefix)
	}
	if out == nil {
		return
	}
	out = yamlpos.Deref(out)
	if out.Kind != yaml.MappingNode {
		if out.Tag != "!!null" {
			d.Errorf(yamlpos.Of(out), "%soutputs map each output's name to its JSON Schema", prefix)
		}
		return
	}
	for _, p := range yamlpos.MappingPairs(d, out, prefix+"outputs: ") {
		o := &chain.SnippetOutput{Name: p.Key.Value, Pos: yamlpos.Of(p.Key)}
		var raw map[string]any
		if sv := yamlpos.Deref(p.Value); sv.Kind != yaml.MappingNode && sv.Tag != "!!null" {
			// mcp-flowgate's check: INVALID_SNIPPET (snippet_contract.rs, V5)
			what := "text"
			if sv.Kind == yaml.SequenceNode {
				what = "a list"
			}
			d.Errorf(yamlpos.Of(sv), "%soutputs: %s: its JSON Schema is a mapping ({type: string}), not %s", prefix, o.Name, what)
		} else if yamlpos.DecodeInto(d, sv, &raw) {
			o.Raw, _ = chain.NormalizeYAML(raw).(map[string]any)
		}
		if o.Raw == nil {
			o.Raw = map[string]any{}
		}
		w.Cap.Outputs = append(w.Cap.Outputs, o)
	}
}

// decodeWorkflowInputs makes the short inputs the workflow's inputSchema,
// and their values the context's first keys.
func decodeWorkflowInputs(d *yamlpos.Diags, w *chain.Workflow, v *yaml.Node, prefix string) {
	if w.InputSchema != nil {
		d.Errorf(yamlpos.Of(v), "%swrite the inputs once: inputs (or a snippet's inputs) or inputSchema", prefix)
		return
	}
	schema, order := decodeShortInputs(d, v, prefix+"inputs: ")
	w.InputSchema = schema
	w.SetInputOrder(order...)
	w.InputsInContext = true
	// messages about the schema point at the inputs written
	w.FieldPos["inputSchema"] = yamlpos.Of(v)
}

// decodeBlackboard reads the blackboard: a list of slot names, or each
// slot's JSON Schema.
func decodeBlackboard(d *yamlpos.Diags, w *chain.Workflow, v *yaml.Node, prefix string) {
	b := &chain.Blackboard{Slots: map[string]*chain.Slot{}, Pos: yamlpos.Of(v)}
	add := func(s *chain.Slot) {
		if b.Slots[s.Name] != nil {
			d.Errorf(s.Pos, "%sblackboard: slot %q is declared twice", prefix, s.Name)
			return
		}
		b.Slots[s.Name] = s
		b.Order = append(b.Order, s.Name)
	}
	switch v.Kind {
	case yaml.SequenceNode:
		for _, n := range v.Content {
			n = yamlpos.Deref(n)
			if n.Kind != yaml.ScalarNode || n.Value == "" {
				d.Errorf(yamlpos.Of(n), "%sblackboard: a slot is named by a word", prefix)
				continue
			}
			add(&chain.Slot{Name: n.Value, Pos: yamlpos.Of(n)})
		}
	case yaml.MappingNode:
		for _, s := range decodeSlots(d, v, prefix+"blackboard: ") {
			add(s)
		}
	default:
		d.Errorf(yamlpos.Of(v), "%sblackboard is a list of slot names or maps each slot to its JSON Schema", prefix)
	}
	w.Blackboard = b
}

// decodeSlots reads a mapping of slot names to JSON Schemas (nothing for
// an untyped slot), with scope and default beside the schema.
func decodeSlots(d *yamlpos.Diags, v *yaml.Node, prefix string) []*chain.Slot {
	if v.Kind != yaml.MappingNode {
		d.LooseErrorf(yamlpos.Of(v), "%sslots map each slot's name to its JSON Schema", prefix)
		return nil
	}
	var out []*chain.Slot
	for _, p := range yamlpos.MappingPairs(d, v, prefix) {
		if before, _, found := strings.Cut(p.Key.Value, ":"); found {
			// what mcp-flowgate's YAML reader makes of it too: a slot of
			// that odd name, untyped
			d.Warnf(yamlpos.Of(p.Key), "%s%q is read as one name (YAML needs a space after the colon in %q): the slot is left untyped", prefix, p.Key.Value, before+": ")
			continue
		}
		s := &chain.Slot{Name: p.Key.Value, Pos: yamlpos.Of(p.Key)}
		n := yamlpos.Deref(p.Value)
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			out = append(out, s)
			continue
		}
		var raw map[string]any
		if !yamlpos.DecodeInto(d, n, &raw) {
			continue
		}
		s.Raw, _ = chain.NormalizeYAML(raw).(map[string]any)
		if sc, ok := s.Raw["scope"]; ok {
			s.Scope = fmt.Sprint(sc)
			if s.Scope != "state" && s.Scope != "workflow" {
				d.Errorf(yamlpos.Of(n), "%sslot %q: scope is state or workflow, not %q", prefix, s.Name, s.Scope)
			}
		}
		s.Default = s.Raw["default"]
		out = append(out, s)
	}
	return out
}

// onEnterKeys are the keys of a state's onEnter.
type onEnterKeys struct {
	Executor    any `yaml:"executor"`
	Output      any `yaml:"output"`
	Reliability any `yaml:"reliability"`
}

// decodeOnEnter reads a state's onEnter: {executor, output, reliability}.
func decodeOnEnter(d *yamlpos.Diags, c *chain.Chain, s *chain.State, v *yaml.Node, prefix string) {
	prefix += "onEnter: "
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "%sonEnter is {executor, output, reliability}", prefix)
		return
	}
	yamlpos.CheckKeys(d, v, prefix, yamlpos.KeysOf[onEnterKeys]())
	on := &chain.OnEnter{Pos: yamlpos.Of(v)}
	if e := yamlpos.ValueOf(v, "executor"); e != nil {
		on.Executor = decodeExecutor(d, c, yamlpos.Deref(e), "state", s.Name, "onEnter", prefix+"executor: ")
	} else {
		d.Errorf(yamlpos.Of(v), "%san executor is required (kind: noop when only output mappings run)", prefix)
	}
	if o := yamlpos.ValueOf(v, "output"); o != nil {
		on.Output = decodeOutputMappings(d, yamlpos.Deref(o), prefix)
	}
	if r := yamlpos.ValueOf(v, "reliability"); r != nil && on.Executor != nil {
		chain.DecodeReliability(d, executorCandidates(d, c, "state", on.Executor), on.Executor, yamlpos.Deref(r), prefix)
	}
	s.OnEnter = on
}

// decodeOnTimeout reads a workflow's onTimeout: {target: STATE}. An
// executor beside the target, which mcp-flowgate's documentation shows
// but its runtime never ran (it only moves the run to target), is read
// with a warning and not run either.
func decodeOnTimeout(d *yamlpos.Diags, w *chain.Workflow, v *yaml.Node, prefix string) {
	prefix += "onTimeout: "
	var o struct {
		Target   string `yaml:"target"`
		Executor any    `yaml:"executor"` // warned of below, never run
	}
	if v.Kind == yaml.MappingNode && yamlpos.KeyNode(v, "executor") != nil {
		d.Warnf(yamlpos.Of(yamlpos.KeyNode(v, "executor")), "%sexecutor: not run: a run that runs out of time only moves to target, as mcp-flowgate's runtime does (it never ran this executor); give the target state an onEnter executor to run one", prefix)
	}
	if yamlpos.DecodeChecked(d, v, prefix, []string{"target", "executor"}, &o) {
		w.OnTimeout = o.Target
		if o.Target == "" {
			d.Errorf(yamlpos.Of(v), "%starget is required: the state a run that ran out of time moves to", prefix)
		}
	}
}

// MaxWorkflowTimeoutMS is the longest timeoutMs: a year.
const MaxWorkflowTimeoutMS = 365 * 24 * 60 * 60 * 1000

// workflowTimeout reads a workflow's timeoutMs.
func workflowTimeout(d *yamlpos.Diags, w *chain.Workflow, v *yaml.Node, prefix string) {
	var ms int64
	if !yamlpos.DecodeInto(d, v, &ms) {
		return
	}
	if ms <= 0 || ms > MaxWorkflowTimeoutMS {
		d.Errorf(yamlpos.Of(v), "%smust be more than 0 and at most %d (a year)", prefix, int64(MaxWorkflowTimeoutMS))
		return
	}
	w.Timeout = time.Duration(ms) * time.Millisecond
}

// decodeFragments reads a file's skills: library and checks each
// fragment.
func decodeFragments(d *yamlpos.Diags, v *yaml.Node) map[string]*chain.Fragment {
	out := map[string]*chain.Fragment{}
	if v.Tag == "!!null" || (v.Kind == yaml.SequenceNode && len(v.Content) == 0) {
		return out
	}
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "skills: map each fragment's subject to {verb, lifecycle, body}")
		return out
	}
	for _, p := range yamlpos.MappingPairs(d, v, "skills: ") {
		f := &chain.Fragment{Subject: p.Key.Value, Pos: yamlpos.Of(p.Key)}
		if !yamlpos.DecodeChecked(d, yamlpos.Deref(p.Value), "skills: "+chain.Quote(f.Subject)+": ", yamlpos.KeysOf[chain.Fragment](), f) {
			continue
		}
		checkFragment(d, f)
		out[f.Subject] = f
	}
	return out
}

// colonInName reports a name that swallowed its value: `count:{type:
// integer}` without a space after the colon is one plain YAML key.
func colonInName(d *yamlpos.Diags, k *yaml.Node, prefix string) bool {
	before, _, found := strings.Cut(k.Value, ":")
	if !found {
		return false
	}
	d.Errorf(yamlpos.Of(k), "%s%q is read as one name: YAML needs a space after the colon in %q", prefix, k.Value, before+": ")
	return true
}
