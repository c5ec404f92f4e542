package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/run"
)

// untouchedDurable is a durable engine the test never lets run: any call
// of its methods panics (its run.Durable is nil).
type untouchedDurable struct{ run.Durable }

// TestKeepGoingIsRefusedOnADurableEngine: --keep-going is not carried to
// a durable engine's runs, so run and resume refuse it there (exit 2,
// pointing at keep_going in the chain) instead of ignoring it.
func TestKeepGoingIsRefusedOnADurableEngine(t *testing.T) {
	saved := extension
	t.Cleanup(func() { extension = saved })
	extension = &Extension{Name: "temporal", Connect: func(context.Context, DurableConfig) (run.Durable, error) {
		return untouchedDurable{}, nil
	}}
	dir := t.TempDir()
	chains := filepath.Join(dir, "chains")
	if err := os.MkdirAll(chains, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(chains, "ci.yaml"), []byte("name: ci\nsteps:\n  - {id: a, type: cli, run: 'true'}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("CHAINRUN_CHAINS_DIR", chains)
	for _, args := range [][]string{
		{"run", "ci", "--engine", "temporal", "--keep-going"},
		{"resume", "some-run", "--engine", "temporal", "--keep-going"},
	} {
		io, _, _, errOut := iostreams.Test()
		f := newFactory(io)
		f.getwd = func() (string, error) { return dir, nil }
		if code := execute(context.Background(), f, args); code != 2 || !strings.Contains(errOut.String(), "--keep-going: a durable engine's runs do not take it; write keep_going: true in the chain") {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
	}
}
