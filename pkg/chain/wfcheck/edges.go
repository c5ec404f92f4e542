package wfcheck

import (
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/spell"
)

// edgeBranch checks an edge_traversed_at_least branch: edge names a
// move "from->to" between states, when the count (1 or more).
func (v *checker) edgeBranch(prefix string, b *chain.Branch) {
	w := v.c.Workflow
	from, to, ok := strings.Cut(b.Edge, "->")
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	switch {
	case !ok || from == "" || to == "":
		v.d.Errorf(b.Pos, "%s: edge_traversed_at_least needs edge: \"from->to\", two states", prefix)
	case w.State(from) == nil:
		v.d.Errorf(b.Pos, "%s: edge %q: %q is not a state%s", prefix, b.Edge, from, spell.DidYouMean(from, stateNames(w)))
	case to != chain.End && w.State(to) == nil:
		v.d.Errorf(b.Pos, "%s: edge %q: %q is not a state (or end)%s", prefix, b.Edge, to, spell.DidYouMean(to, append(stateNames(w), chain.End)))
	}
	n, err := strconv.Atoi(strings.TrimSpace(b.When))
	if err != nil || n < 1 {
		v.d.Errorf(b.Pos, "%s: edge_traversed_at_least: when %q is not a count (1 or more)", prefix, b.When)
	}
	b.SetEdge(chain.Edge{From: from, To: to}, n)
}

// onFailure checks a task's on_failure: a state (or end), on a state
// with a task.
func (v *checker) onFailure(s *chain.State) {
	if s.OnFailure == "" {
		return
	}
	w := v.c.Workflow
	switch {
	case s.Task == nil:
		v.d.Errorf(s.At("on_failure"), "state %q: on_failure is where a failed task leads: the state has no task", s.Name)
	case s.OnFailure != chain.End && w.State(s.OnFailure) == nil:
		v.d.Errorf(s.At("on_failure"), "state %q: on_failure %q is not a state (or end)%s", s.Name, s.OnFailure, spell.DidYouMean(s.OnFailure, append(stateNames(w), chain.End)))
	}
}
