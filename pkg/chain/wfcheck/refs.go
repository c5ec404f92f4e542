package wfcheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/guardexpr"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// The checks of what a transition names besides its target: branch
// targets, guidance fragments, acknowledged subjects, its fire cap.

// checkTransitionBranches checks that each branch leads to a state.
func (v *checker) checkTransitionBranches(t *chain.Transition) {
	w := v.c.Workflow
	for _, b := range t.Branches {
		if w.State(b.Target) == nil {
			v.d.Errorf(b.Pos, "transition %q: branch target %q is not a state%s", t.Name, b.Target, spell.DidYouMean(b.Target, stateNames(w)))
		}
	}
}

// checkAckGuards refuses an acknowledgment guard of a transition (or of
// its branches) whose subject the run could never show: a guidance
// subject the file's skills: library lacks. A script's subject may live in
// another file's scripts: (found as a script executor's is), which the
// run checks before it starts.
func (v *checker) checkAckGuards(prefix string, t *chain.Transition) {
	lib := v.c.Workflow.Library
	check := func(g *chain.Guard, path string) {
		if g.Kind != chain.GuardGuidanceAck || lib[g.Subject] != nil {
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
			prefix, path, g.Subject, has, spell.DidYouMean(g.Subject, known))
	}
	guardexpr.WalkAcks(t.Guards, "guards", check)
	for i, b := range t.Branches {
		guardexpr.WalkAck(b.When, fmt.Sprintf("branches[%d].when", i+1), check)
	}
}

// checkSkillRefs warns of subjects the file's library does not hold:
// their guidance lives in another file (a shared library), so only their
// names can be shown.
func (v *checker) checkSkillRefs(where string, refs chain.SkillRefs) {
	for _, s := range refs.Subjects {
		if v.c.Workflow.Library[s] == nil {
			v.d.Warnf(refs.Pos, "%sskill %q is not in this file's skills: library: whoever decides sees its name, not its guidance", where, s)
		}
	}
}

// fireCapWarnings warns of a max_fires_per_visit that bounds nothing as
// written: a negative one is no cap, as mcp-flowgate reads it, and 0
// keeps the transition from ever firing.
func fireCapWarnings(d *yamlpos.Diags, t *chain.Transition) {
	if _, written := t.FieldPos["max_fires_per_visit"]; !written {
		return
	}
	switch {
	case t.MaxFiresPerVisit < 0:
		d.Warnf(t.At("max_fires_per_visit"), "transition %q: max_fires_per_visit %d is no cap (mcp-flowgate counts to a whole number of 0 or more): the transition fires without bound", t.Name, t.MaxFiresPerVisit)
	case t.MaxFiresPerVisit == 0:
		d.Warnf(t.At("max_fires_per_visit"), "transition %q: max_fires_per_visit 0: the transition can never fire", t.Name)
	}
}
