package chain

import "github.com/chainrun/chainrun/pkg/chain/guardexpr"

// The guard model and its evaluation live in pkg/chain/guardexpr, which
// the engine and the front-ends may share without the whole chain; these
// names keep the chain's own vocabulary (chain.Guard, chain.GuardFacts)
// for its readers.
type (
	// Guard is one entry of a transition's guards: (guardexpr.Guard).
	Guard = guardexpr.Guard
	// EvidenceRequirement is one entry of an evidence guard's requires.
	EvidenceRequirement = guardexpr.EvidenceRequirement
	// EvidenceDecl is an executor's evidence: declaration.
	EvidenceDecl = guardexpr.EvidenceDecl
	// Principal is who a run acts for, as permission and role guards see it.
	Principal = guardexpr.Principal
	// Evidence is one record an evidence guard counts.
	Evidence = guardexpr.Evidence
	// GuardFacts are what guards are checked against.
	GuardFacts = guardexpr.GuardFacts
	// GuardError is a guard that could not be checked.
	GuardError = guardexpr.GuardError
	// AckKey names a subject an acknowledgment guard asks for.
	AckKey = guardexpr.AckKey
	// Acknowledgment is a subject's body acknowledged in a run.
	Acknowledgment = guardexpr.Acknowledgment
	// AckFacts are what acknowledgment guards read.
	AckFacts = guardexpr.AckFacts
)

// Guard kinds and acknowledgment kinds (guardexpr's).
const (
	GuardExpr        = guardexpr.GuardExpr
	GuardPermission  = guardexpr.GuardPermission
	GuardRole        = guardexpr.GuardRole
	GuardEvidence    = guardexpr.GuardEvidence
	GuardAllOf       = guardexpr.GuardAllOf
	GuardAnyOf       = guardexpr.GuardAnyOf
	GuardNot         = guardexpr.GuardNot
	GuardGuidanceAck = guardexpr.GuardGuidanceAck
	GuardScriptAck   = guardexpr.GuardScriptAck
	AckGuidance      = guardexpr.AckGuidance
	AckScript        = guardexpr.AckScript
)

// GuardKinds lists the guard kinds, for messages and the schema.
func GuardKinds() []string { return guardexpr.GuardKinds() }

// AckOf is the subject an acknowledgment guard asks for.
func AckOf(g *Guard) AckKey { return guardexpr.AckOf(g) }

// AckSubjects lists, once each and in order, the subjects the
// acknowledgment guards among guards ask for, nested ones included.
func AckSubjects(guards []*Guard) []AckKey { return guardexpr.AckSubjects(guards) }
