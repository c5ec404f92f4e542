package chain

import (
	"fmt"
	"testing"
)

// TestFlowgateSkillVerbs ports verb_enum.rs (github.com/matt-cochran/mcp-flowgate,
// commit 443aa7a, crates/mcp-flowgate-core/tests/verb_enum.rs; SPEC
// §5.4.1): a skill's verb is one of ten (research and summarize, its v0.3
// reconnaissance verbs, with the eight before), each loading; a legacy
// verb (apply, check, avoid, follow), another one, one in capitals and a
// missing one refuse the file (its configuration load does too), the
// message naming the verb and listing all ten.
func TestFlowgateSkillVerbs(t *testing.T) {
	file := func(verb string) string {
		line := ""
		if verb != "" {
			line = "    verb: " + verb + "\n"
		}
		return "version: \"1.0.0\"\nskills:\n  review.style.fixture:\n" + line + "    lifecycle: stable\n    body: \"fixture body\"\nworkflows:\n  w: {initialState: a, states: {a: {terminal: true}}}\n"
	}
	const ten = "triage, diagnose, plan, implement, review, refactor, explain, compose, research, summarize"
	for _, verb := range []string{"triage", "diagnose", "plan", "implement", "review", "refactor", "explain", "compose", "research", "summarize"} {
		t.Run("verb_"+verb+"_loads", func(t *testing.T) { loadsOrRefuses(t, file(verb), "", "", "verb") })
	}
	for _, tc := range []struct{ name, verb, err string }{
		{"legacy_verb_apply_rejected", "apply", `verb "apply" is not one of ` + ten},
		{"legacy_verb_check_rejected", "check", `verb "check" is not one of`},
		{"legacy_verb_avoid_rejected", "avoid", `verb "avoid" is not one of`},
		{"legacy_verb_follow_rejected", "follow", `verb "follow" is not one of`},
		{"invalid_verb_error_lists_all_ten", "nonsense", fmt.Sprintf(`c.yaml:3:3: skills: "review.style.fixture": verb "nonsense" is not one of %s`, ten)},
		{"uppercase_verb_rejected", "Review", `verb "Review" is not one of ` + ten + ` (did you mean review?)`},
		{"allcaps_verb_rejected", "REVIEW", `verb "REVIEW" is not one of`},
		{"missing_verb_field_rejected", "", `skills: "review.style.fixture": verb is required (one of ` + ten + `)`},
	} {
		t.Run(tc.name, func(t *testing.T) { loadsOrRefuses(t, file(tc.verb), tc.err, "", "") })
	}
}
