package contenox

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestTaskChainInputsOpen: a task chain's schema declares its input and
// leaves other properties open, as it did before the format had its own
// package; it is not read as mcp-flowgate's (pkg/chain's TestInputsOpen
// has the other shapes).
func TestTaskChainInputsOpen(t *testing.T) {
	l, err := parseChain("x.json", []byte("id: y\ntasks:\n  - {id: s, handler: noop}\n"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !l.Chain.InputsOpen() {
		t.Error("InputsOpen false, want true")
	}
	if l.Chain.LenientInputs() {
		t.Error("LenientInputs true, want false")
	}
}

// TestTaskOnFailureReachesStates: a task reached only through another's
// on_failure, and every task after it, is reachable; a task nothing
// leads to is still warned of (pkg/chain's TestOnFailureEdgesReachStates
// has a workflow's).
func TestTaskOnFailureReachesStates(t *testing.T) {
	src := `{"id": "fl", "tasks": [
  {"id": "boom", "handler": "noop", "transition": {"on_failure": "catch", "branches": [{"operator": "default", "when": "", "goto": "end"}]}},
  {"id": "catch", "handler": "noop", "transition": {"branches": [{"operator": "default", "when": "", "goto": "after"}]}},
  {"id": "after", "handler": "noop", "transition": {"branches": [{"operator": "default", "when": "", "goto": "end"}]}},
  {"id": "never", "handler": "noop", "transition": {"branches": [{"operator": "default", "when": "", "goto": "end"}]}}]}`
	l, err := parseChain("c.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lost []string
	for _, w := range l.Warnings {
		if m := w.Message; strings.Contains(m, "is unreachable") {
			lost = append(lost, strings.Split(m, `"`)[1])
		}
	}
	if strings.Join(lost, ",") != "never" {
		t.Errorf("unreachable: %v, want [never] (%v)", lost, l.Warnings)
	}
}
