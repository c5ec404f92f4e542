package chain

import (
	"fmt"
	"sort"
	"strings"

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

// checkAckGuards refuses an acknowledgment guard of a transition (or of
// its branches) whose subject the run could never show: a guidance
// subject the file's skills: library lacks. A script's subject may live in
// another file's scripts: (found as a script executor's is), which the
// run checks before it starts.
func (v *validator) checkAckGuards(prefix string, t *Transition) {
	lib := v.c.Workflow.Library
	check := func(g *Guard, path string) {
		if g.Kind != GuardGuidanceAck || lib[g.Subject] != nil {
			return
		}
		known := make([]string, 0, len(lib))
		for s := range lib {
			known = append(known, s)
		}
		sort.Strings(known)
		has := "it declares none"
		if len(known) > 0 {
			has = "it has " + strings.Join(known, ", ")
		}
		v.d.Errorf(g.At("subject"), "%s%s: guidance_acknowledged subject %q is not in this file's skills: library (%s)%s: the run could never show its body",
			prefix, path, g.Subject, has, didYouMean(g.Subject, known))
	}
	guardexpr.WalkAcks(t.Guards, "guards", check)
	for i, b := range t.Branches {
		guardexpr.WalkAck(b.When, fmt.Sprintf("branches[%d].when", i+1), check)
	}
}
