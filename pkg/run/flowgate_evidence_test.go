package run

import (
	"strings"
	"testing"
)

// TestFlowgateEvidenceGuardFilters ports evidence_guard_filters.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/evidence_guard_filters.rs), whose
// records are here recorded by the run: with_output's executor prints a
// line (its record keeps a digest of it), bare's is a noop (no output, no
// digest); each records evidence of kind approval. The min_confidence
// cases differ: chainrun's records state no confidence, so such a
// requirement is never met (min_confidence_excludes_records_with_no_confidence_field
// holds; the others' records would need one).
func TestFlowgateEvidenceGuardFilters(t *testing.T) {
	for _, tc := range []struct {
		name, takes, requires string
		pass                  bool
	}{
		{"legacy_string_requirement_still_works", "bare", `[approval]`, true},
		{"legacy_count_requirement_still_works", "bare bare", `[{kind: approval, count: 2}]`, true},
		{"legacy_count_fails_short_of_quorum", "bare", `[{kind: approval, count: 2}]`, false},
		{"require_digest_excludes_records_with_no_digest", "bare bare", `[{kind: approval, require_digest: true}]`, false},
		{"require_digest_accepts_records_with_digest", "with_output", `[{kind: approval, require_digest: true}]`, true},
		{"require_digest_false_accepts_records_without_digest", "bare", `[{kind: approval, require_digest: false}]`, true},
		{"require_digest_counts_only_digested_records_toward_quorum", "with_output bare bare", `[{kind: approval, count: 2, require_digest: true}]`, false},
		{"min_confidence_excludes_records_with_no_confidence_field", "with_output bare", `[{kind: approval, min_confidence: 0.5}]`, false},
		{"multiple_requires_entries_must_all_satisfy", "with_output", `[approval, transition:bare]`, false},
		{"multiple_requires_entries, both met", "with_output bare", `[approval, transition:bare]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := startFgWalk(t, demoWorkflow(`    initialState: s
    states:
      s:
        goal: gather approvals
        transitions:
          with_output: {target: s, actor: human, executor: {kind: cli, command: echo, args: [approved], evidence: {kind: approval}}}
          bare: {target: s, actor: human, executor: {kind: noop, evidence: {kind: approval}}}
          finalize: {target: done, actor: human, guards: [{kind: evidence, requires: `+tc.requires+`}]}
      done: {terminal: true}
`), nil)
			for _, take := range strings.Fields(tc.takes) {
				w.submit(take, nil)
				if w.err != nil || w.res.State != "s" {
					t.Fatalf("%s: %v at %s", take, w.err, w.res.State)
				}
			}
			w.submit("finalize", nil)
			if tc.pass {
				w.completed("done")
			} else {
				w.guardRejected("finalize")
			}
		})
	}
}
