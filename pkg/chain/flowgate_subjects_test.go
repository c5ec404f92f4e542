package chain

import "testing"

// TestFlowgateSkillSubjects ports subject_roots.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/subject_roots.rs; SPEC §5.4.2; the
// pattern is config.rs is_subject_pattern: dotted kebab tokens of one
// character or more, at least two, after an optional ns/ prefix): each
// blessed root loads; an empty subject, one segment, capitals and
// whitespace refuse the file. An unblessed root refuses its load by
// default and is a warning under flowgate.strict_namespacing: false;
// chainrun loads it with a warning either way (it reads no gateway
// setting), saying which mcp-flowgate would do (under the setting:
// format/flowgate's TestSkillRootUnderLaxNamespacing).
func TestFlowgateSkillSubjects(t *testing.T) {
	file := func(subject, top string) string {
		return "version: \"1.0.0\"\n" + top + "skills:\n  " + subject + ":\n    verb: review\n    lifecycle: stable\n    body: \"fixture body\"\nworkflows:\n  w: {initialState: a, states: {a: {terminal: true}}}\n"
	}
	// blessed_root_<root>_accepted, and the plan sub-paths
	for _, subject := range []string{"review.style.x", "authoring.skill.x", "debug.repro.x", "deploy.safety.x", "import.mattpocock.x", "lifecycle.drafting.x",
		"plan.execute.pr-scope", "plan.specify.adr.architecture", "plan.execute.sprint.breakdown", "research.context.assemble", "summarize.session.delta", "cognitive/plan.draft"} {
		t.Run(subject, func(t *testing.T) { loadsOrRefuses(t, file(subject, ""), "", "", "root") })
	}
	for _, tc := range []struct{ name, subject, top, err, warn string }{
		{"unblessed_root_rejected_under_default_strict", "nonsense.foo.bar", "", "",
			`c.yaml:3:3: warning: skills: "nonsense.foo.bar": its root nonsense is none of authoring, debug, deploy, import, lifecycle, triage, diagnose, plan, implement, review, refactor, explain, compose, research, summarize: mcp-flowgate refuses the file (INVALID_SUBJECT_ROOT) unless flowgate.strict_namespacing is false`},
		{"unblessed root, did you mean", "revew.foo.bar", "", "", `(did you mean review?)`},
		{"empty_subject_rejected", `""`, "", `skills: "": a subject is lowercase dotted words`, ""},
		{"single_segment_subject_rejected", "review", "", `skills: "review": a subject is lowercase dotted words`, ""},
		{"uppercase_subject_segment_rejected", "Review.style.x", "", `skills: "Review.style.x": a subject is lowercase dotted words`, ""},
		{"whitespace_in_subject_rejected", `"review. style.x"`, "", `skills: "review. style.x": a subject is lowercase dotted words`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) { loadsOrRefuses(t, file(tc.subject, tc.top), tc.err, tc.warn, "root") })
	}
}
