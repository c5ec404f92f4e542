package chain

import "github.com/chainrun/chainrun/pkg/chain/wfpart"

// The parts of a state workflow that hold no step (branches, output
// mappings, the blackboard's slots, capabilities, guidance fragments,
// scripts and connections)
// live in pkg/chain/wfpart, as the guards live in pkg/chain/guardexpr;
// these names keep the chain's own vocabulary (chain.Branch,
// chain.OutputMapping) for the model's readers.
type (
	// Edge is a move from one state to another.
	Edge = wfpart.Edge
	// Branch is one rule of a task state's transition.
	Branch = wfpart.Branch
	// Compose stores a value of a task's output when its branch is taken.
	Compose = wfpart.Compose
	// OutputMapping sets one context key when a transition is taken.
	OutputMapping = wfpart.OutputMapping
	// Operand is one operand of an output mapping.
	Operand = wfpart.Operand
	// Slot is one slot of the context a blackboard declares.
	Slot = wfpart.Slot
	// Blackboard is the context's slots a workflow declares.
	Blackboard = wfpart.Blackboard
	// SlotConstraint is a slot's constraint on the values written to it.
	SlotConstraint = wfpart.SlotConstraint
	// Capability is what a capability declares of itself.
	Capability = wfpart.Capability
	// SnippetOutput is one value a capability's snippet returns.
	SnippetOutput = wfpart.SnippetOutput
	// Fragment is one guidance fragment of a file's skills: library.
	Fragment = wfpart.Fragment
	// SkillRefs are the fragments a workflow, state or transition names.
	SkillRefs = wfpart.SkillRefs
	// Script is one entry of a workflow file's scripts: library.
	Script = wfpart.Script
	// Connection is one entry of a file's connections:.
	Connection = wfpart.Connection
)

// Branch operators, output mapping operators and connection kinds
// (wfpart's).
const (
	OpEquals        = wfpart.OpEquals
	OpNotEquals     = wfpart.OpNotEquals
	OpContains      = wfpart.OpContains
	OpNotContains   = wfpart.OpNotContains
	OpRange         = wfpart.OpRange
	OpDefault       = wfpart.OpDefault
	OpStartsWith    = wfpart.OpStartsWith
	OpEndsWith      = wfpart.OpEndsWith
	OpEdgeTraversed = wfpart.OpEdgeTraversed
	OpAdd           = wfpart.OpAdd
	OpSubtract      = wfpart.OpSubtract
	OpMultiply      = wfpart.OpMultiply
	OpDivide        = wfpart.OpDivide
	OpSet           = wfpart.OpSet
	OpConcat        = wfpart.OpConcat
	ConnREST        = wfpart.ConnREST
	ConnCLI         = wfpart.ConnCLI
	ConnMCP         = wfpart.ConnMCP
)

// FirstNumber reads the first number of a model's answer (wfpart's).
func FirstNumber(text string) (float64, error) { return wfpart.FirstNumber(text) }
