package wfcheck

import "github.com/chainrun/chainrun/pkg/chain"

// reachability warns about states no path from initialState reaches (a
// transition, a branch or a task's on_failure), and about runs that can
// never end.
func (v *checker) reachability() {
	w := v.c.Workflow
	seen, ends := reach(w)
	w.SetUnreachable(unreachable(w, seen))
	for _, s := range w.States {
		if !seen[s.Name] {
			v.d.Warnf(s.Pos, "state %q is unreachable: no transition from initialState %q leads to it", s.Name, w.InitialState)
		}
	}
	if !ends {
		v.d.Warnf(at(w, "initialState", v.c.Pos), "workflow %q never ends: no terminal state or goto: end is reachable from %q", v.c.Name, w.InitialState)
	}
}

// unreachable lists the steps (executors, tasks, onEnter) of the states
// no path from initialState reaches, and the executors of a terminal
// state's transitions (never taken): a run never needs what they name,
// so a connection or script only they name does not refuse it.
func unreachable(w *chain.Workflow, seen map[string]bool) []*chain.Step {
	var out []*chain.Step
	for _, s := range w.States {
		if seen[s.Name] {
			if s.Terminal {
				out = append(out, executors(s.Transitions)...) // never taken
			}
			continue
		}
		if s.Task != nil {
			out = append(out, s.Task)
		}
		if s.OnEnter != nil && s.OnEnter.Executor != nil {
			out = append(out, s.OnEnter.Executor)
			out = append(out, s.OnEnter.Executor.Fallbacks...)
		}
		out = append(out, executors(s.Transitions)...)
	}
	return out
}

// executors is the executors of the transitions.
func executors(ts []*chain.Transition) []*chain.Step {
	var out []*chain.Step
	for _, t := range ts {
		if t.Executor != nil {
			out = append(out, t.Executor)
			out = append(out, t.Executor.Fallbacks...)
		}
	}
	return out
}

// reach is the set of states a path from initialState reaches (a
// transition, a branch or a task's on_failure), and whether the run can
// end.
func reach(w *chain.Workflow) (map[string]bool, bool) {
	seen := map[string]bool{w.InitialState: true}
	queue := []string{w.InitialState}
	ends := false
	for len(queue) > 0 {
		s := w.State(queue[0])
		queue = queue[1:]
		var next []string
		if s.Terminal {
			// a run ends there: transitions it lists are never taken
			ends = true
			continue
		}
		for _, t := range s.Transitions {
			next = append(next, t.Target)
			for _, b := range t.Branches {
				next = append(next, b.Target)
			}
		}
		gotos := make([]string, 0, len(s.Branches)+1)
		for _, b := range s.Branches {
			gotos = append(gotos, b.Goto)
		}
		if s.OnFailure != "" {
			// a failed task leads there: as much an edge as a branch
			gotos = append(gotos, s.OnFailure)
		}
		for _, g := range gotos {
			if g == chain.End {
				ends = true
				continue
			}
			next = append(next, g)
		}
		for _, n := range next {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return seen, ends
}
