package flow

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
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
		if err := slotAllows(slot, v, f.pathDoc(nil, nil, nil)); err != nil {
			f.setContext(before)
			return fmt.Errorf("blackboard slot %s: %w", k, err)
		}
	}
	return nil
}

// slotAllows checks a value against a slot's schema and its constraint
// (path_allowlist, then subset_of, whose reference array it reads in
// doc), as mcp-flowgate checks a write.
func slotAllows(slot *chain.Slot, v any, doc map[string]any) error {
	if v == nil {
		// null is what a path that selects nothing gives: the slot is
		// unset, as mcp-flowgate leaves it
		return nil
	}
	if slot.Schema != nil {
		if err := slot.Schema.Validate(v); err != nil {
			return fmt.Errorf("%s does not fit its schema: %v", record.Clip(interp.TextOf(v), 60), err)
		}
	}
	c := slot.Constraint
	if c == nil {
		return nil
	}
	items, isList := v.([]any)
	if c.Allowlist {
		if !isList {
			return fmt.Errorf("path_allowlist: %s is not an array of paths", record.Clip(interp.TextOf(v), 60))
		}
		for _, p := range items {
			text, ok := p.(string)
			if !ok {
				return fmt.Errorf("path_allowlist: %s is not a path", record.Clip(interp.TextOf(p), 60))
			}
			if matchAny(c.Deny, text) {
				return fmt.Errorf("path_allowlist: %s is not allowed (it matches a glob of deny:)", text)
			}
			if !matchAny(c.Allow, text) {
				return fmt.Errorf("path_allowlist: %s is not allowed", text)
			}
		}
	}
	if c.SubsetOf != nil {
		ref, ok := chain.Select(c.SubsetOf, doc).([]any)
		if !ok {
			return fmt.Errorf("subset_of: %s is unset or not an array (a constraint fails fast on what it cannot read)", c.SubsetOfRaw)
		}
		if !isList {
			return fmt.Errorf("subset_of: %s is not an array", record.Clip(interp.TextOf(v), 60))
		}
		for _, e := range items {
			if !slices.ContainsFunc(ref, func(r any) bool { return reflect.DeepEqual(r, e) }) {
				return fmt.Errorf("subset_of: %s is not present in the reference array %s", record.Clip(interp.TextOf(e), 60), c.SubsetOfRaw)
			}
		}
	}
	return nil
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
