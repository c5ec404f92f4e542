package chain

import (
	"strings"
	"testing"
)

// An unknown key of an input, or of a workflow's agent, is reported once,
// in chainrun's words, not again in the decoder's.
func TestUnknownKeysAreReportedOnce(t *testing.T) {
	for name, src := range map[string]string{
		"input": "name: t\ninputs:\n  - {name: a, type: string, typo: 1}\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"agent": "version: \"1\"\nworkflows:\n  w:\n    initialState: a\n    agent: {model: x, modle: y}\n    states:\n      a: {terminal: true}\n",
	} {
		_, err := Parse("c.yaml", []byte(src), Options{})
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
		seen := map[string]int{}
		for _, l := range lines {
			for _, k := range []string{`"type"`, `"typo"`, `"modle"`} {
				if strings.Contains(l, k) {
					seen[k]++
				}
			}
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("%s: %s reported %d times:\n%v", name, k, n, err)
			}
		}
		if len(seen) == 0 {
			t.Errorf("%s: nothing reported: %v", name, err)
		}
	}
}
