package chain_test

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// outsideKind, set in the environment of a child test binary, makes its
// init register the ping kind below: a kind declared outside pkg/chain
// through the exported registry and Checker only. The parent binary's
// kinds stay the built-in ones (the inventory golden is judged there).
const outsideKind = "CHAIN_TEST_OUTSIDE_KIND"

func init() {
	if os.Getenv(outsideKind) == "" {
		return
	}
	chain.Register(chain.Unit{
		Kind:    "ping",
		Order:   1000,
		Aliases: []chain.Kind{"pong"},
		Also:    []string{"url", "prompt"},
		Check: func(v chain.Checker, s *chain.Step) {
			if s.HTTP().URL == "" {
				v.Errorf(s.Pos, "%s: url is required for a ping step", v.Subject(s))
			}
			if s.Agent().Prompt != "" {
				v.Warnf(s.At("prompt"), "%s: a ping step sends no prompt", v.Subject(s))
			}
		},
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			c.URL = v.Template(s, "url", s.HTTP().URL)
		},
	})
}

// TestUnitOutsideChain: a kind registered from another package is a kind
// like the built-in ones: named in Kinds() in its Order with its alias,
// its keys accepted and other kinds' refused with their owners, its checks
// reporting at their places, its templates compiled and their references
// checked against what the step can see.
func TestUnitOutsideChain(t *testing.T) {
	if os.Getenv(outsideKind) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestUnitOutsideChain$", "-test.v")
		cmd.Env = append(os.Environ(), outsideKind+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestUnitOutsideChain")) {
			t.Fatalf("with a kind registered outside pkg/chain: %v\n%s", err, out)
		}
		return
	}
	if k := chain.Kinds(); !slices.Equal(k[len(k)-2:], []string{"ping", "pong"}) {
		t.Errorf("Kinds() ends with %v, want ping, pong (Order 1000 is after every built-in kind)", k[len(k)-2:])
	}
	const head = "name: x\ninputs:\n  - name: host\nsteps:\n"
	for _, tc := range []struct {
		name, steps string
		errs, warns []string
	}{
		{name: "loads", steps: "  - {id: a, type: ping, url: 'http://{input.host}/'}\n"},
		{name: "reads a step's output", steps: "  - {id: h, type: cli, command: hostname, output_var: hn}\n  - {id: a, type: ping, url: 'http://{hn}/', depends_on: h}\n"},
		{name: "alias", steps: "  - {id: a, type: pong, url: 'http://h/'}\n"},
		{name: "its check in a branch", steps: "  - id: p\n    type: parallel\n    branches:\n      - {type: ping}\n", errs: []string{`c.yaml:8:9: step "p" branch 1: url is required for a ping step`}},
		{name: "its check", steps: "  - {id: a, type: ping}\n", errs: []string{`c.yaml:5:5: step "a": url is required for a ping step`}},
		{name: "its warning", steps: "  - id: a\n    type: ping\n    url: http://h/\n    prompt: hi\n", warns: []string{`c.yaml:8:5: warning: step "a": a ping step sends no prompt`}},
		{name: "a reference nothing gives", steps: "  - {id: a, type: ping, url: 'http://{nowhere}/'}\n", errs: []string{"c.yaml:5", "nowhere"}},
		{name: "another kind's key", steps: "  - {id: a, type: ping, url: 'http://h/', command: ls}\n", errs: []string{`command does not belong to a ping step (it is a field of cli steps)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := chain.Parse("c.yaml", []byte(head+tc.steps), chain.Options{})
			if len(tc.errs) == 0 {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if steps := l.Chain.Steps; steps[len(steps)-1].C().URL == nil {
					t.Error("the unit's Compile did not compile url")
				}
			} else if err == nil || !chain.IsValidation(err) {
				t.Fatalf("Parse = %v, want a validation error", err)
			}
			for _, w := range tc.errs {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not hold %q:\n%s", w, err)
				}
			}
			for _, w := range tc.warns {
				var all []string
				for _, d := range l.Warnings {
					all = append(all, d.String())
				}
				if !slices.Contains(all, w) {
					t.Errorf("warnings %q do not hold %q", all, w)
				}
			}
		})
	}
}
