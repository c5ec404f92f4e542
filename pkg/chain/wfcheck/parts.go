package wfcheck

import (
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// checkWorkflowParts checks the keys mcp-flowgate's v0.6 added: a capability's
// verb, lifecycle and outputs, the blackboard, skills, state actors and
// link filters, and the workflow's timeout.
func (v *checker) checkWorkflowParts() {
	c, w, d := v.c, v.c.Workflow, v.d
	v.checkCapability()
	v.checkTiers()
	v.checkBlackboard()
	wprefix := "workflow " + chain.Quote(c.Name) + ": "
	v.checkSkillRefs(wprefix, w.Skills)
	w.LinkFilter = readLinkFilter(d, at(w, "linkFilter", c.Pos), wprefix, w.LinkFilter)
	// mcp-flowgate accepts either without the other: a timeout with no
	// target is only recorded, a target with no timeout never taken
	switch {
	case w.Timeout > 0 && w.OnTimeout == "":
		d.Warnf(at(w, "timeoutMs", c.Pos), "%stimeoutMs without onTimeout: a run that runs out of time stays where it is (mcp-flowgate only records it); add onTimeout: {target: STATE} to move it", wprefix)
	case w.Timeout <= 0 && w.OnTimeout != "":
		d.Warnf(at(w, "onTimeout", c.Pos), "%sonTimeout without timeoutMs: its target is never taken; add timeoutMs (milliseconds) to set how long a run may take", wprefix)
	}
	if w.OnTimeout != "" && w.State(w.OnTimeout) == nil {
		d.Errorf(at(w, "onTimeout", c.Pos), "%sonTimeout target %q is not a state%s", wprefix, w.OnTimeout, spell.DidYouMean(w.OnTimeout, stateNames(w)))
	}
	for _, s := range w.States {
		sprefix := "state " + chain.Quote(s.Name) + ": "
		if s.Actor != "" && !slices.Contains(actors, s.Actor) {
			// its transitions that do not name their own are read as
			// agent's where the transitions are checked
			d.Warnf(s.At("actor"), "%sactor %q is read as agent: actor is deterministic, agent or human, and mcp-flowgate decides any other as an agent's%s", sprefix, s.Actor, spell.DidYouMean(s.Actor, actors))
			s.Actor = chain.ActorAgent
		}
		s.LinkFilter = readLinkFilter(d, s.At("linkFilter"), sprefix, s.LinkFilter)
		v.checkSkillRefs(sprefix, s.Skills)
		for _, t := range s.Transitions {
			v.checkSkillRefs(sprefix+"transition "+chain.Quote(t.Name)+": ", t.Skills)
			v.checkAckGuards(sprefix+"transition "+chain.Quote(t.Name)+": ", t)
		}
	}
}

// actors are who may take a transition.
var actors = []string{chain.ActorDeterministic, chain.ActorAgent, chain.ActorHuman}

// readLinkFilter is a written linkFilter as mcp-flowgate reads it
// (runtime_links.rs: only byGuards filters): another value is read as
// all, with a warning.
func readLinkFilter(d *yamlpos.Diags, at chain.Pos, prefix, filter string) string {
	if filter == "" || filter == chain.LinkFilterByGuards || filter == chain.LinkFilterAll {
		return filter
	}
	d.Warnf(at, "%slinkFilter %q is read as all: it is byGuards or all, and mcp-flowgate offers every transition unless it is byGuards%s", prefix, filter, spell.DidYouMean(filter, []string{chain.LinkFilterByGuards, chain.LinkFilterAll}))
	return chain.LinkFilterAll
}

// onEnterShape checks a state's onEnter executor as any executor, and
// refuses a workflow executor there: a decision inside it could not be
// resumed, since no transition began it.
func (v *checker) onEnterShape(s *chain.State) {
	if s.OnEnter == nil || s.OnEnter.Executor == nil {
		return
	}
	v.executor(s.OnEnter.Executor)
	if s.OnEnter.Executor.Kind == chain.KindWorkflow {
		v.d.Errorf(s.OnEnter.Executor.At("type"), "state %q: onEnter cannot run a workflow executor: run it from a transition", s.Name)
	}
}

// fallbacks checks an executor's reliability.fallback candidates as
// executors, each named as the user wrote it (transition "go" fallback
// 1). A workflow or human executor cannot stand in for another: a
// decision inside it could not be resumed, since the call that began it
// is the primary's.
func (v *checker) fallbacks(e *chain.Step) {
	for _, fb := range e.Fallbacks {
		v.executor(fb)
		if fb.Kind == chain.KindWorkflow || fb.Kind == chain.KindHuman {
			v.d.Errorf(fb.At("type"), "%s: a fallback cannot be a %s executor: a decision inside it could not be resumed; take it from a transition of its own", v.Subject(fb), fb.Kind)
		}
	}
}
