package run

import (
	"fmt"
	"maps"
	"reflect"
	"sort"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/tools"
)

// checkSlots checks the context keys a transition (or an onEnter) at
// state s changed against the slots that declare a schema: a value a
// typed slot refuses fails the transition before the run moves on, and
// the context is left as it was.
func (f *flow) checkSlots(s *chain.State, before map[string]any) error {
	if f.w.Blackboard == nil && (s == nil || len(s.Slots) == 0) {
		return nil
	}
	keys := make([]string, 0, len(f.context))
	for k := range f.context {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := f.context[k]
		if old, had := before[k]; had && reflect.DeepEqual(old, v) {
			continue
		}
		slot := f.w.SlotFor(s, k)
		if slot == nil {
			continue
		}
		if err := slotAllows(slot, v); err != nil {
			f.setContext(before)
			return fmt.Errorf("blackboard slot %s: %w", k, err)
		}
	}
	return nil
}

// slotAllows checks a value against a slot's schema and its
// path_allowlist constraint.
func slotAllows(slot *chain.Slot, v any) error {
	if v == nil {
		// null is what a path that selects nothing gives: the slot is
		// unset, as mcp-flowgate leaves it
		return nil
	}
	if slot.Schema != nil {
		if err := slot.Schema.Validate(v); err != nil {
			return fmt.Errorf("%s does not fit its schema: %v", clip(textOf(v), 60), err)
		}
	}
	allow, deny := pathAllowlist(slot.Raw)
	if allow == nil && deny == nil {
		return nil
	}
	var paths []any
	switch x := v.(type) {
	case []any:
		paths = x
	default:
		paths = []any{x}
	}
	for _, p := range paths {
		text, ok := p.(string)
		if !ok {
			return fmt.Errorf("path_allowlist: %s is not a path", clip(textOf(p), 60))
		}
		if matchAny(deny, text) || (allow != nil && !matchAny(allow, text)) {
			return fmt.Errorf("path_allowlist: %s is not allowed", text)
		}
	}
	return nil
}

// pathAllowlist reads a slot's constraint: {path_allowlist: {allow,
// deny}}, globs where ** spans directories.
func pathAllowlist(raw map[string]any) (allow, deny []string) {
	c, _ := raw["constraint"].(map[string]any)
	pl, _ := c["path_allowlist"].(map[string]any)
	if pl == nil {
		return nil, nil
	}
	list := func(key string) []string {
		var out []string
		items, _ := pl[key].([]any)
		for _, it := range items {
			out = append(out, fmt.Sprint(it))
		}
		if out == nil && pl[key] != nil {
			out = []string{}
		}
		return out
	}
	return list("allow"), list("deny")
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if tools.MatchPath(p, name) {
			return true
		}
	}
	return false
}

// enterSlots sets the state-local slots of the state the run enters from
// another one to their defaults, and removes those of the state it left.
func (f *flow) enterSlots(from, to string) {
	if from == to {
		return
	}
	var left, entered *chain.State
	if from != "" {
		left = f.w.State(from)
	}
	entered = f.w.State(to)
	if (left == nil || len(left.Slots) == 0) && (entered == nil || len(entered.Slots) == 0) {
		return
	}
	next := maps.Clone(f.context)
	if left != nil {
		for _, s := range left.Slots {
			if s.Scope != "workflow" {
				delete(next, s.Name)
			}
		}
	}
	if entered != nil {
		for _, s := range entered.Slots {
			if _, set := next[s.Name]; s.Scope != "workflow" || !set {
				next[s.Name] = s.Default
			}
		}
	}
	f.setContext(next)
}
