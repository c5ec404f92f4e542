package chain

import "github.com/chainrun/chainrun/pkg/chain/guardexpr"

// CheckGuards reports whether every guard of the transition holds, in
// the order written; why names the first that does not. An error is a
// guard that could not be checked (*GuardError).
func (t *Transition) CheckGuards(f *GuardFacts) (ok bool, why string, err error) {
	return guardexpr.AllHold(t.Guards, f)
}

// defaultEvidence is the kind of evidence an executor records when it
// declares none: mcp-flowgate's names for its executors.
var defaultEvidence = map[Kind]string{
	KindCLI:    "cli_output",
	KindHTTP:   "rest_call",
	KindHuman:  "human_request",
	KindScript: "script_output",
	KindMCP:    "mcp_tool_result",
}

// EvidenceKind is the kind of evidence an executor that succeeded
// records: the one its transition declares, else its kind's default
// ("" for none).
func EvidenceKind(e *Step, decl *EvidenceDecl) string {
	if decl != nil && decl.Kind != "" {
		return decl.Kind
	}
	if e == nil {
		return ""
	}
	return defaultEvidence[e.Kind]
}

// TransitionEvidence is the kind of evidence every taking of a
// transition records, whatever its executor.
func TransitionEvidence(name string) string { return "transition:" + name }
