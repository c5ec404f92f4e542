package chain

import (
	yaml "go.yaml.in/yaml/v4"
)

// pair is one key and value of a YAML mapping.
type pair struct{ key, value *yaml.Node }

// mappingPairs lists the entries of mapping m with YAML merge keys
// (<<: *defaults) expanded — an explicit key wins over a merged one — and
// reports every key written twice (the YAML library would silently keep
// the last).
func mappingPairs(d *diags, m *yaml.Node, prefix string) []pair {
	return mergedPairs(d, m, prefix, map[*yaml.Node]bool{})
}

// mergedPairs is mappingPairs with the mappings being merged on the way
// down, so that a merge that refers back to itself is an error, not an
// endless recursion.
func mergedPairs(d *diags, m *yaml.Node, prefix string, merging map[*yaml.Node]bool) []pair {
	merging[m] = true
	defer delete(merging, m)
	out := make([]pair, 0, len(m.Content)/2)
	seen := make(map[string]*yaml.Node, len(m.Content)/2)
	var merged []pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Tag == "!!merge" {
			for _, src := range mergeSources(v) {
				if merging[src] {
					d.errorf(posOf(k), "%s<< merges a mapping into itself", prefix)
					continue
				}
				merged = append(merged, mergedPairs(d, src, prefix, merging)...)
			}
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			d.errorf(posOf(k), "%s%s is given twice (first at line %d)", prefix, k.Value, prev.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, pair{k, v})
	}
	for _, p := range merged {
		if _, explicit := seen[p.key.Value]; !explicit {
			seen[p.key.Value] = p.key
			out = append(out, p)
		}
	}
	return out
}

// mergeSources are the mappings a merge key brings in: one, or a list.
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = deref(v)
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, e := range v.Content {
			if e = deref(e); e.Kind == yaml.MappingNode {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// decodeStep fills a step from its mapping. Text and list-of-text fields,
// nearly all of a chain, are read straight from the nodes; the others go
// through the YAML library, which reports type errors with positions.
func decodeStep(d *diags, n *yaml.Node, known map[string]bool, all []string, prefix string) (*Step, bool) {
	s := &Step{Pos: posOf(n), FieldPos: make(map[string]Pos, len(n.Content)/2)}
	before := len(d.errs())
	ok := true
	for _, p := range mappingPairs(d, n, prefix) {
		k, val := p.key, deref(p.value)
		key := k.Value
		if key == "kind" {
			// reference 000 writes an executor's type as kind
			key = "type"
			if _, both := s.FieldPos["type"]; both {
				d.errorf(posOf(k), "%sset type or kind, not both", prefix)
				ok = false
				continue
			}
		}
		if !known[key] {
			d.errorf(posOf(k), "%sunknown field %q%s", prefix, key, didYouMean(key, all))
			ok = false
			continue
		}
		if _, both := s.FieldPos[key]; both && key == "type" {
			d.errorf(posOf(k), "%sset type or kind, not both", prefix)
			ok = false
			continue
		}
		k = &yaml.Node{Kind: k.Kind, Value: key, Line: k.Line, Column: k.Column}
		s.FieldPos[k.Value] = posOf(k)
		if dst := s.textField(k.Value); dst != nil && val.Kind == yaml.ScalarNode {
			if val.Tag != "!!null" {
				*dst = val.Value
			}
			continue
		}
		if dst := s.listField(k.Value); dst != nil {
			if val.Kind == yaml.ScalarNode && val.Tag != "!!null" && listFields[k.Value] {
				*dst = []string{val.Value}
				continue
			}
			if list, isText := textList(val); isText {
				*dst = list
				continue
			}
		}
		if err := val.Load(s.field(k.Value), yaml.WithKnownFields()); err != nil {
			d.yamlError(err, posOf(val), nil, prefix+k.Value+": ")
			ok = false
		}
	}
	return s, ok && len(d.errs()) == before
}

// textList reads a sequence of scalars.
func textList(n *yaml.Node) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		e = deref(e)
		if e.Kind != yaml.ScalarNode || e.Tag == "!!null" {
			return nil, false
		}
		out = append(out, e.Value)
	}
	return out, true
}

// textField points at the step's text field named key, or is nil.
func (s *Step) textField(key string) *string {
	switch key {
	case "id":
		return &s.ID
	case "type":
		return &s.Type
	case "label":
		return &s.Label
	case "output_var":
		return &s.OutputVar
	case "cwd":
		return &s.Cwd
	case "condition":
		return &s.Condition
	case "early_exit_if":
		return &s.EarlyExitIf
	case "for_each":
		return &s.ForEach
	case "output_schema":
		return &s.OutputSchema
	case "model":
		return &s.Model
	case "prompt":
		return &s.Prompt
	case "system":
		return &s.System
	case "command":
		return &s.Command
	case "run":
		return &s.Run
	case "method":
		return &s.Method
	case "url":
		return &s.URL
	case "body":
		return &s.Body
	case "expr":
		return &s.Expr
	case "path":
		return &s.Path
	case "chain":
		return &s.Chain
	}
	return nil
}

// listField points at the step's list-of-text field named key, or is nil.
func (s *Step) listField(key string) *[]string {
	switch key {
	case "depends_on":
		return &s.DependsOn
	case "tools":
		return &s.Tools
	case "fallback_models":
		return &s.FallbackModels
	case "args":
		return &s.Args
	case "output_must_contain":
		return &s.OutputMustContain
	case "output_must_not_contain":
		return &s.OutputMustNotContain
	case "condition_key":
		return &s.ConditionKey
	}
	return nil
}

// field points at any field of the step by its YAML key.
func (s *Step) field(key string) any {
	if p := s.textField(key); p != nil {
		return p
	}
	if p := s.listField(key); p != nil {
		return p
	}
	switch key {
	case "timeout_ms":
		return &s.TimeoutMS
	case "retry":
		return &s.Retry
	case "continue_on_error":
		return &s.ContinueOnError
	case "idempotent":
		return &s.Idempotent
	case "pre_tools":
		return &s.PreTools
	case "guardrails":
		return &s.Guardrails
	case "output_max_length":
		return &s.OutputMaxLength
	case "temperature":
		return &s.Temperature
	case "max_tokens":
		return &s.MaxTokens
	case "cache":
		return &s.Cache
	case "context_strategy":
		return &s.ContextStrategy
	case "max_turns":
		return &s.MaxTurns
	case "completion":
		return &s.Completion
	case "env":
		return &s.Env
	case "headers":
		return &s.Headers
	case "fail_on_status":
		return &s.FailOnStatus
	case "with":
		return &s.With
	}
	panic("chain: no step field for key " + key)
}
