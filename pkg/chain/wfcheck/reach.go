package wfcheck

// reachability warns about states no path from initialState reaches (a
// transition, a branch or a task's on_failure), and about runs that can
// never end.
func (v *checker) reachability() {
	w := v.c.Workflow
	seen, ends := w.Reach()
	for _, s := range w.States {
		if !seen[s.Name] {
			v.d.Warnf(s.Pos, "state %q is unreachable: no transition from initialState %q leads to it", s.Name, w.InitialState)
		}
	}
	if !ends {
		v.d.Warnf(at(w, "initialState", v.c.Pos), "workflow %q never ends: no terminal state or goto: end is reachable from %q", v.c.Name, w.InitialState)
	}
}
