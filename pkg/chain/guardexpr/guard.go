package guardexpr

import (
	"fmt"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	"slices"
	"strconv"
	"strings"
)

// Guard is one entry of a transition's `guards:` (mcp-flowgate): a test
// that must hold for the transition to be viable, beside its condition.
// Guards make the rules of a gate explicit in the file: an expression over
// the run's context, the principal's permissions and roles, evidence the
// run has recorded, and their combinations.
//
// The yaml tags name the keys a guard may hold; which of them a guard
// needs depends on its kind.
type Guard struct {
	Kind       string                 `yaml:"kind" doc:"expr, permission, role, evidence, guidance_acknowledged, script_acknowledged, all_of, any_of or not."`
	Expr       string                 `yaml:"expr" doc:"kind expr: a comparison over $.context.x, $.arguments.x, $.workflow.input.x (or $.input.x) and $.workflow.id, .state, .version, such as \"$.context.testCount > 0\"; ==, !=, <, >, <=, >=, and, or, not."`
	Permission string                 `yaml:"permission" doc:"kind permission: a permission the configured principal must hold."`
	Role       string                 `yaml:"role" doc:"kind role: a role the configured principal must hold."`
	Guards     []*Guard               `yaml:"guards" doc:"kind all_of or any_of: the guards of which all, or at least one, must hold."`
	Inner      *Guard                 `yaml:"guard" doc:"kind not: the guard that must not hold."`
	Requires   []*EvidenceRequirement `yaml:"requires" doc:"kind evidence: the evidence the run must have recorded: each a kind, or {kind, count, require_digest, distinct_principals, min_confidence}."`
	Subject    string                 `yaml:"subject" doc:"kind guidance_acknowledged: a subject of the file's skills: library; kind script_acknowledged: a script's subject. The run must have acknowledged its body as it is now."`

	Pos      yamlpos.Pos
	FieldPos map[string]yamlpos.Pos

	expr *Expr
}

// Guard kinds.
const (
	GuardExpr       = "expr"
	GuardPermission = "permission"
	GuardRole       = "role"
	GuardEvidence   = "evidence"
	GuardAllOf      = "all_of"
	GuardAnyOf      = "any_of"
	GuardNot        = "not"
	// GuardGuidanceAck and GuardScriptAck hold once the run acknowledged
	// the body of a skill or a script (guard_ack.go).
	GuardGuidanceAck = "guidance_acknowledged"
	GuardScriptAck   = "script_acknowledged"
)

// GuardKinds lists the guard kinds, for messages and the schema.
func GuardKinds() []string {
	return []string{GuardExpr, GuardPermission, GuardRole, GuardEvidence, GuardGuidanceAck, GuardScriptAck, GuardAllOf, GuardAnyOf, GuardNot}
}

// EvidenceRequirement is one entry of an evidence guard's `requires`: at
// least Count records of Kind.
type EvidenceRequirement struct {
	Kind  string `yaml:"kind" doc:"The kind of evidence counted."`
	Count int    `yaml:"count" doc:"How many records are needed (default 1)."`
	// RequireDigest counts only records that carry a digest of what their
	// executor produced.
	RequireDigest bool `yaml:"require_digest" doc:"Count only records with a digest (sha256) of their executor's output."`
	// DistinctPrincipals counts the principals the records come from,
	// not the records: two approvals by one person are one.
	DistinctPrincipals bool `yaml:"distinct_principals" doc:"Count the principals who took the transitions, not the records."`
	// MinConfidence counts only records whose stated confidence is at
	// least this (mcp-flowgate); the records a run keeps state none.
	MinConfidence *float64 `yaml:"min_confidence" doc:"Count only records with a stated confidence of at least this (0 to 1); the records chainrun keeps state none."`
}

// EvidenceDecl is an executor's `evidence:` (mcp-flowgate): the kind of
// evidence taking its transition records once the executor succeeded.
type EvidenceDecl struct {
	Kind    string `yaml:"kind" doc:"The kind of evidence recorded when the executor (or a parallel branch, a pipeline step) succeeds (default: cli_output for cli, rest_call for http, human_request for human, script_output for script, mcp_tool_result for mcp)."`
	ID      string `yaml:"id" doc:"An identifier of the record: kept with a branch's or a pipeline step's record ({{ $.workflow.id }} is the run id); on an executor accepted, chainrun naming the record by its run and transition."`
	Summary string `yaml:"summary" doc:"What the evidence shows: kept with a branch's or a pipeline step's record, else for readers of the file."`
}

// Principal is who a run acts for, as permission and role guards see it:
// configured where chainrun runs (config principal, CHAINRUN_PRINCIPAL_*).
type Principal struct {
	ID          string
	Roles       []string
	Permissions []string
}

// Evidence is one record an evidence guard counts: a transition the run
// took (kind "transition:NAME"), or what its executor produced.
type Evidence struct {
	Kind       string
	Transition string
	// Principal is the id of the principal the run acted for then.
	Principal string
	// Digest is "sha256:…" of the executor's output, when there is one.
	Digest string
}

// GuardFacts are what guards are checked against: the run as it stands.
type GuardFacts struct {
	Context   map[string]any
	Arguments map[string]any
	Input     any
	// RunID, State and Version are $.workflow.id, .state and .version.
	RunID, State, Version string
	// Principal is nil when none is configured.
	Principal *Principal
	Evidence  []Evidence
	// Acks are what acknowledgment guards read (guard_ack.go).
	Acks *AckFacts
}

// GuardError is a guard that could not be checked: it read a slot of the
// context that is not set (Slot), or its expression failed. Guards fail
// fast rather than read such a slot as false.
type GuardError struct {
	Guard string
	Slot  string
	Err   error
}

func (e *GuardError) Error() string {
	if e.Slot != "" {
		return fmt.Sprintf("%s reads %s, which is not set (guards fail fast on an unset slot: set it with initialContext, an output mapping or a cli executor's JSON before this transition is considered)", e.Guard, e.Slot)
	}
	return fmt.Sprintf("%s: %v", e.Guard, e.Err)
}

func (e *GuardError) Unwrap() error { return e.Err }

// AllHold checks guards in order, stopping at the first that does not
// hold (a transition's, an all_of's).
func AllHold(guards []*Guard, f *GuardFacts) (bool, string, error) {
	for i, g := range guards {
		label := fmt.Sprintf("guard %d (%s)", i+1, g.Label())
		ok, why, err := g.check(f)
		if err != nil {
			return false, "", nameGuard(err, label)
		}
		if !ok {
			return false, label + ": " + why, nil
		}
	}
	return true, "", nil
}

// nameGuard puts the outermost guard's name on an error from within it.
func nameGuard(err error, label string) error {
	if ge, ok := err.(*GuardError); ok {
		inner := *ge
		if inner.Guard == "" {
			inner.Guard = label
		} else {
			inner.Guard = label + ": " + inner.Guard
		}
		return &inner
	}
	return &GuardError{Guard: label, Err: err}
}

// Label names the guard in messages: its kind and what it tests.
func (g *Guard) Label() string {
	switch g.Kind {
	case GuardExpr:
		return "expr " + strconv.Quote(g.Expr)
	case GuardPermission:
		return "permission " + strconv.Quote(g.Permission)
	case GuardRole:
		return "role " + strconv.Quote(g.Role)
	case GuardGuidanceAck, GuardScriptAck:
		return g.Kind + " " + strconv.Quote(g.Subject)
	}
	return g.Kind
}

// check tests one guard; why says what failed when it does not hold.
func (g *Guard) check(f *GuardFacts) (bool, string, error) {
	switch g.Kind {
	case GuardExpr:
		ok, err := g.expr.holds(f)
		if err != nil {
			return false, "", err
		}
		return ok, "false", nil
	case GuardPermission:
		return principalHas(f.Principal, "permission", g.Permission)
	case GuardRole:
		return principalHas(f.Principal, "role", g.Role)
	case GuardEvidence:
		return checkEvidence(g.Requires, f.Evidence)
	case GuardGuidanceAck, GuardScriptAck:
		return f.Acks.holds(AckOf(g))
	case GuardAllOf:
		return AllHold(g.Guards, f)
	case GuardAnyOf:
		return g.anyOf(f)
	case GuardNot:
		ok, _, err := g.Inner.check(f)
		if err != nil {
			return false, "", nameGuard(err, g.Inner.Label())
		}
		return !ok, g.Inner.Label() + " holds", nil
	}
	return false, "", fmt.Errorf("unknown guard kind %q", g.Kind)
}

// anyOf holds when one of its guards does. A guard that cannot be
// checked (an unset slot) is no failure when another holds: the file said
// any of them will do. When none holds, the first such error is.
func (g *Guard) anyOf(f *GuardFacts) (bool, string, error) {
	var firstErr error
	var whys []string
	for i, in := range g.Guards {
		label := fmt.Sprintf("guard %d (%s)", i+1, in.Label())
		ok, why, err := in.check(f)
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = nameGuard(err, label)
			}
		case ok:
			return true, "", nil
		default:
			whys = append(whys, label+": "+why)
		}
	}
	if firstErr != nil {
		return false, "", firstErr
	}
	return false, "none holds (" + strings.Join(whys, "; ") + ")", nil
}

// principalHas checks a permission or role against the principal.
func principalHas(p *Principal, what, name string) (bool, string, error) {
	if p == nil {
		return false, fmt.Sprintf("no principal is configured to hold it: set principal: {id, roles, permissions} in the config, or CHAINRUN_PRINCIPAL_ID, CHAINRUN_PRINCIPAL_ROLES and CHAINRUN_PRINCIPAL_PERMISSIONS (comma-separated)"), nil
	}
	held := p.Permissions
	if what == "role" {
		held = p.Roles
	}
	if slices.Contains(held, name) {
		return true, "", nil
	}
	who := "the principal"
	if p.ID != "" {
		who = "principal " + strconv.Quote(p.ID)
	}
	return false, fmt.Sprintf("%s does not hold %s %q", who, what, name), nil
}

// checkEvidence counts the run's records for each requirement.
func checkEvidence(reqs []*EvidenceRequirement, records []Evidence) (bool, string, error) {
	for _, r := range reqs {
		n := r.count(records)
		if n >= r.Count {
			continue
		}
		what := "records"
		switch {
		case r.MinConfidence != nil:
			what = fmt.Sprintf("records with a confidence of at least %g (chainrun's records state none)", *r.MinConfidence)
		case r.DistinctPrincipals:
			what = "principals"
		case r.RequireDigest:
			what = "records with a digest"
		}
		return false, fmt.Sprintf("needs %d %s %s, has %d", r.Count, strconv.Quote(r.Kind), what, n), nil
	}
	return true, "", nil
}

// count is how many of the records meet the requirement.
func (r *EvidenceRequirement) count(records []Evidence) int {
	if r.MinConfidence != nil {
		return 0 // no record states a confidence
	}
	n := 0
	seen := map[string]bool{}
	for _, e := range records {
		if e.Kind != r.Kind || (r.RequireDigest && e.Digest == "") {
			continue
		}
		if r.DistinctPrincipals {
			if seen[e.Principal] {
				continue
			}
			seen[e.Principal] = true
		}
		n++
	}
	return n
}
