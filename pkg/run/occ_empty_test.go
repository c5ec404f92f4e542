package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// A chain OCC's canvas saves without steps: OCC 29f33c0
// mcp-server/tests/loader.test.ts ("loads chains with no steps as
// canvas-only workspaces", "loads chains with empty steps array") loads
// it, and its executor.ts (executeChain) refuses to run it before
// anything else, inputs included ("has no executable steps"). chainrun
// loads it with a warning and refuses its run and its dry run before
// anything runs (exit 2); chainrun's own format refuses it when it loads.
func TestOCCChainWithoutSteps(t *testing.T) {
	for _, src := range []string{
		occHead + "steps: []\noutput: \"\"\n",
		occHead + "steps: []\noutput: report\n",
		occHead,
		occHead + "inputs: [{name: topic}]\nsteps: []\n",
	} {
		l, err := parseChain("canvas.yaml", []byte(src), chain.Options{})
		if err != nil {
			t.Fatalf("%q: does not load: %v", src, err)
		}
		if len(l.Warnings) == 0 || !strings.Contains(l.Warnings[0].Message, "holds no step") {
			t.Fatalf("%q: no warning: %v", src, l.Warnings)
		}
		var empty *response.EmptyChainError
		_, err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: l.Chain})
		if !errors.As(err, &empty) || !empty.NothingRan() || !strings.Contains(err.Error(), "canvas.yaml: chain \"t\" has no executable steps") {
			t.Fatalf("%q: run: %v", src, err)
		}
		if _, err := New().Plan(Request{Chain: l.Chain}); !errors.As(err, &empty) {
			t.Fatalf("%q: dry run: %v", src, err)
		}
	}
	for _, src := range []string{"name: t\nsteps: []\n", "name: t\nsteps: []\noutput: x\n"} {
		if _, err := parseChain("own.yaml", []byte(src), chain.Options{}); err == nil || !strings.Contains(err.Error(), "a chain needs at least one step") {
			t.Fatalf("own format %q: %v", src, err)
		}
	}
}
