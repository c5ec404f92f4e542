package flowgate

import (
	"strings"
	"testing"
)

// TestSkillRootUnderLaxNamespacing ports subject_roots.rs
// unblessed_root_accepted_when_strict_off
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a): under the
// gateway's flowgate.strict_namespacing: false, a root outside the
// blessed ones loads with the same warning as without it (chainrun reads
// no gateway setting), and the setting itself is said to be ignored.
func TestSkillRootUnderLaxNamespacing(t *testing.T) {
	src := "version: \"1.0.0\"\nflowgate:\n  strict_namespacing: false\nskills:\n  revew.foo.bar:\n    verb: review\n    lifecycle: stable\n    body: \"fixture body\"\nworkflows:\n  w: {initialState: a, states: {a: {terminal: true}}}\n"
	said := warningsOf(mustParse(t, src))
	for _, want := range []string{`skills: "revew.foo.bar": its root revew is none of authoring,`, "flowgate.strict_namespacing: the gateway's own setting is ignored"} {
		if !strings.Contains(said, want) {
			t.Errorf("warnings\n%s\nhold no %q", said, want)
		}
	}
}
