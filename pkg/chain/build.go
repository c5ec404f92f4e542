package chain

// The constructors and setters a front-end builds the model with. A
// front-end (pkg/format/...) reads a peer's file and hands pkg/load
// chains; it cannot reach the model's unexported indexes, so these keep
// them consistent whichever reader filled the model.

// NewWorkflow returns an empty workflow for a front-end to fill: its
// states are added with AddState, so that State finds them by name.
func NewWorkflow() *Workflow {
	return &Workflow{byName: map[string]*State{}, FieldPos: map[string]Pos{}}
}

// AddState appends a state to the workflow. The first state of a name is
// the one State and every goto find; AddState reports false when the name
// was taken already, and appends the state all the same so that its own
// findings are reported with the file's others.
func (w *Workflow) AddState(s *State) bool {
	w.States = append(w.States, s)
	if _, taken := w.byName[s.Name]; taken {
		return false
	}
	w.byName[s.Name] = s
	return true
}

// SetInputOrder sets the order the workflow's inputs are listed in (in
// messages and a run's --input help), which a schema's map does not keep.
func (w *Workflow) SetInputOrder(names ...string) { w.inputOrder = names }

// Place names a step the user wrote inside something else, as messages
// call it: owner, the step's id quoted, then role (state "a" task,
// transition "go" executor). A step without a place is a "step".
func (s *Step) Place(owner, role string) { s.owner, s.role = owner, role }
