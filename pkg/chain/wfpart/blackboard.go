package wfpart

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/theory/jsonpath"
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
	Pos        yamlpos.Pos
}

// Blackboard is the workflow's declared context slots, nil when it
// declares none (then any key may be written).
type Blackboard struct {
	Slots map[string]*Slot
	Order []string
	Pos   yamlpos.Pos
}

// Slot returns the declared slot of that name, or nil.
func (b *Blackboard) Slot(name string) *Slot {
	if b == nil {
		return nil
	}
	return b.Slots[name]
}

// SlotConstraint is what a blackboard slot's constraint: declares
// (mcp-flowgate's SPEC §28), checked whenever a transition writes the
// slot: path_allowlist, an array of paths each matching an allow glob
// and no deny glob; subset_of, an array every element of which is in the
// array a JSONPath reads. Several kinds must all hold.
type SlotConstraint struct {
	// Allowlist is set when path_allowlist is declared; Allow and Deny
	// are its globs (** spans directories).
	Allowlist   bool
	Allow, Deny []string
	// SubsetOf reads the reference array; SubsetOfRaw is the path as
	// written.
	SubsetOf    *jsonpath.Path
	SubsetOfRaw string
}
