package chain

import (
	"github.com/chainrun/chainrun/pkg/chain/guardexpr"
)

// AckSubjectsOf lists, once each and in order, the subjects the
// acknowledgment guards of the transitions (and of their branches) ask
// for: what may be described at a decision point, or in a workflow.
func AckSubjectsOf(ts ...*Transition) []AckKey {
	var guards []*Guard
	for _, t := range ts {
		guards = append(guards, t.AckGuards()...)
	}
	return AckSubjects(guards)
}

// AckGuards are the acknowledgment guards of the transition and of its
// branches, nested ones included.
func (t *Transition) AckGuards() []*Guard {
	var out []*Guard
	add := func(g *Guard, _ string) { out = append(out, g) }
	guardexpr.WalkAcks(t.Guards, "guards", add)
	for _, b := range t.Branches {
		guardexpr.WalkAck(b.When, "when", add)
	}
	return out
}

// Transitions lists every transition of the workflow, state by state.
func (w *Workflow) Transitions() []*Transition {
	var out []*Transition
	for _, s := range w.States {
		out = append(out, s.Transitions...)
	}
	return out
}
