package flow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// candidate is a transition of the state the run is at, and whether it
// may be taken now: its condition and every guard hold (ok), else why
// not. err is a condition that could not be evaluated; guardErr a guard
// that could not be checked (it read an unset slot), which is also why.
type candidate struct {
	t        *chain.Transition
	ok       bool
	why      string
	err      error
	guardErr error
	// awaits are the subjects whose acknowledgment is all the
	// transition waits for (flow_ack.go).
	awaits []chain.AckKey
}

// viable lists the state's transitions whose condition and guards hold,
// with the verdict on each. Guards fail fast: at a state that moves on by
// itself, a guard that cannot be checked fails the run, since which
// transition is meant cannot be known; at a decision point its
// transition is not offered, with a warning that names the guard (as
// mcp-flowgate refuses such a submission). A condition that cannot be
// evaluated fails the run either way.
func (f *flow) viable(s *chain.State) ([]*chain.Transition, []candidate, error) {
	cands := f.assess(s)
	for _, c := range cands {
		switch {
		case c.err != nil:
			return nil, cands, fmt.Errorf("state %s: transition %s: %w", s.Name, c.t.Name, c.err)
		case c.guardErr != nil && s.Automatic():
			return nil, cands, fmt.Errorf("state %s: transition %s: %w", s.Name, c.t.Name, c.guardErr)
		case c.guardErr != nil:
			f.Warn(fmt.Sprintf("state %s: transition %s is not offered: %v", s.Name, c.t.Name, c.guardErr))
		}
	}
	return passing(cands), cands, nil
}

// passing is the candidates that may be taken.
func passing(cands []candidate) []*chain.Transition {
	var out []*chain.Transition
	for _, c := range cands {
		if c.ok {
			out = append(out, c.t)
		}
	}
	return out
}

// assess checks every transition of the state that may be chosen there.
// At a decision point (a state with an agent or human transition) the
// deterministic ones are neither links nor --take choices: reference 000
// chains only a state all of whose transitions are deterministic.
func (f *flow) assess(s *chain.State) []candidate {
	var facts *chain.GuardFacts
	auto := s.Automatic()
	out := make([]candidate, 0, len(s.Transitions))
	for _, t := range s.Transitions {
		if !auto && t.Actor == chain.ActorDeterministic {
			continue
		}
		if facts == nil && len(t.Guards) > 0 {
			facts = f.guardFacts(s)
		}
		out = append(out, f.assess1(t, facts))
	}
	return out
}

// assess1 checks one transition: its max_fires_per_visit, its condition,
// then its guards in order.
func (f *flow) assess1(t *chain.Transition, facts *chain.GuardFacts) candidate {
	c := candidate{t: t, ok: true}
	if why := f.overCap(t); why != "" {
		c.ok, c.why = false, why
		return c
	}
	if cond := t.Cond(); cond != nil {
		holds, err := cond.Holds(run.Scope{Vars: f.Vars}.ExprEnv(cond.Names))
		switch {
		case err != nil:
			c.ok, c.err = false, fmt.Errorf("condition: %v", err)
			return c
		case !holds:
			c.ok, c.why = false, "condition "+strconv.Quote(cond.Source)+" is false"
			return c
		}
	}
	if len(t.Guards) > 0 {
		ok, why, err := t.CheckGuards(facts)
		c.ok, c.why = ok && err == nil, why
		if err != nil {
			c.why, c.guardErr = err.Error(), err
		} else if !ok {
			c.awaits = awaits(t, facts)
		}
	}
	return c
}

// whyNot says why a transition of the state may not be taken now.
func (f *flow) whyNot(s *chain.State, t *chain.Transition) string {
	c := f.assess1(t, f.guardFacts(s))
	if c.err != nil {
		return c.err.Error()
	}
	return c.why
}

// guardFacts are what guards read at state s: the context, the
// decision's arguments, the input, the run, the principal and the
// evidence recorded so far.
func (f *flow) guardFacts(s *chain.State) *chain.GuardFacts {
	return &chain.GuardFacts{Context: f.context, Arguments: f.args, Input: run.Scope{Vars: f.Vars}.ValueEnv([]string{"input"})["input"],
		RunID: f.RunID, State: s.Name, Version: f.Chain.Version, Principal: f.Engine.Principal, Evidence: f.evidence(), Acks: f.ackFacts()}
}

// principalID is the id of the principal the run acts for, "" when none
// is configured.
func (f *flow) principalID() string {
	if f.Engine.Principal == nil {
		return ""
	}
	return f.Engine.Principal.ID
}

// selectionError says why no single transition can be taken at state s:
// none is viable, or (deterministic ones) more than one is; it names
// every candidate and why it is not viable.
func selectionError(s *chain.State, cands []candidate, viable []*chain.Transition) string {
	what := "transition"
	if s.Automatic() {
		what = "deterministic transition"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "selection_error: state %s: ", s.Name)
	var not []string
	for _, c := range cands {
		if !c.ok {
			not = append(not, c.t.Name+": "+c.why)
		}
	}
	if len(viable) == 0 {
		fmt.Fprintf(&b, "no %s is viable", what)
		if len(not) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(not, "; "))
		}
		return b.String()
	}
	names := make([]string, len(viable))
	for i, t := range viable {
		names[i] = t.Name
	}
	fmt.Fprintf(&b, "%d %ss are viable (%s): exactly one must be; make their conditions or guards exclusive", len(viable), what, strings.Join(names, ", "))
	if len(not) > 0 {
		fmt.Fprintf(&b, " (not viable: %s)", strings.Join(not, "; "))
	}
	return b.String()
}
