package chain

import (
	"strings"
	"testing"
)

// TestOnFailureEdgesReachStates: a state reached only through a task's
// on_failure, and every state after it, is reachable; a state nothing
// leads to is still warned of (a contenox task chain's case is in
// pkg/format/contenox).
func TestOnFailureEdgesReachStates(t *testing.T) {
	cases := []struct {
		name, file, src string
		lost            []string
	}{
		{"workflow", "c.yaml", wfHead + "      a:\n        task: {kind: cli, command: \"false\"}\n        transition:\n          on_failure: rescue\n          branches: [{operator: default, goto: end}]\n      rescue:\n        task: {kind: noop}\n        transition: {branches: [{operator: default, goto: report}]}\n      report: {terminal: true}\n      orphan: {terminal: true}\n",
			[]string{"orphan"}},
		{"workflow chain of failures", "c.yaml", wfHead + "      a:\n        task: {kind: cli, command: \"false\"}\n        transition: {on_failure: b, branches: [{operator: default, goto: end}]}\n      b:\n        task: {kind: cli, command: \"false\"}\n        transition: {on_failure: c, branches: [{operator: default, goto: end}]}\n      c: {terminal: true}\n",
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := Parse(c.file, []byte(c.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var lost []string
			for _, w := range l.Warnings {
				if m := w.Message; strings.Contains(m, "is unreachable") {
					lost = append(lost, strings.Split(m, `"`)[1])
				}
			}
			if strings.Join(lost, ",") != strings.Join(c.lost, ",") {
				t.Errorf("unreachable: %v, want %v (%v)", lost, c.lost, l.Warnings)
			}
		})
	}
}
