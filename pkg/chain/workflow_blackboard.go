package chain

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// Slot is a declared key of a workflow's context (mcp-flowgate's
// blackboard), optionally typed: a typed slot's writes are checked
// against its schema before the run moves on.
type Slot struct {
	Name   string
	Raw    map[string]any
	Schema *jsonschema.Resolved
	// Scope "state" makes a state's slot local: set to its default when
	// the run enters the state, removed when it leaves for another one.
	Scope   string
	Default any
	// Constraint is what its constraint: declares, nil when none.
	Constraint *SlotConstraint
	Pos        Pos
}

// Blackboard is the workflow's declared context slots, nil when it
// declares none (then any key may be written).
type Blackboard struct {
	Slots map[string]*Slot
	Order []string
	Pos   Pos
}

// Slot returns the declared slot of that name, or nil.
func (b *Blackboard) Slot(name string) *Slot {
	if b == nil {
		return nil
	}
	return b.Slots[name]
}

// compileSlot resolves a typed slot's schema and its constraint.
func (v *validator) compileSlot(where string, s *Slot) {
	if s.Raw == nil {
		return
	}
	v.compileConstraint(where, s)
	_, rs, problem := resolveSchema(schemaOf(s.Raw))
	if problem != "" {
		v.d.Errorf(s.Pos, "%sslot %q: %s", where, s.Name, problem)
		return
	}
	s.Schema = rs
}

// checkBlackboard compiles the workflow's typed slots and warns of output
// mappings that write a slot the blackboard does not declare.
func (v *validator) checkBlackboard() {
	w := v.c.Workflow
	prefix := "workflow " + quote(v.c.Name) + ": blackboard: "
	if b := w.Blackboard; b != nil {
		for _, name := range b.Order {
			v.compileSlot(prefix, b.Slots[name])
		}
	}
	for _, s := range w.States {
		for _, slot := range s.Slots {
			v.compileSlot("state "+quote(s.Name)+": slots: ", slot)
		}
		if w.Blackboard == nil {
			continue
		}
		check := func(owner string, out []*OutputMapping) {
			for _, m := range out {
				if w.Blackboard.Slot(m.Key) == nil && s.slot(m.Key) == nil {
					v.d.Warnf(m.Pos, "%s: output writes %q, which the workflow's blackboard does not declare", owner, m.Key)
				}
			}
		}
		for _, t := range s.Transitions {
			check("transition "+quote(t.Name), t.Output)
		}
		if s.OnEnter != nil {
			check("state "+quote(s.Name)+" onEnter", s.OnEnter.Output)
		}
	}
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
