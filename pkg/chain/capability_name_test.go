package chain

import (
	"strings"
	"testing"
)

// TestCapabilityNameNotMatchingItsVerbIsAWarning: mcp-flowgate's own
// end-to-end walks (flow_orchestrators_e2e.rs, as the third round's
// findings describe them: peer-fidelity.md F4) call capabilities named
// cap.tests.* whose verb is test; a name that does not match its verb
// loads with a warning, and the file's other checks still hold.
func TestCapabilityNameNotMatchingItsVerbIsAWarning(t *testing.T) {
	for name, verb := range map[string]string{"cap.tests.baseline-snapshot": "test", "cap.plan.y": "triage", "cap.verify": "verify"} {
		src := "version: '1'\nworkflows:\n  " + name + ":\n    verb: " + verb + "\n    initialState: a\n    states: {a: {terminal: true}}\n"
		l, err := Parse("cap.yaml", []byte(src), Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var said []string
		for _, w := range l.Warnings {
			said = append(said, w.Message)
		}
		if !strings.Contains(strings.Join(said, "\n"), "is named cap."+verb+".<name>") {
			t.Errorf("%s: no warning: %v", name, said)
		}
	}
}
