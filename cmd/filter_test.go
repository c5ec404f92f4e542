package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// A --jq expression that does not end is stopped by a stop signal (the
// command's context cancelled): exit 130 at once, the run itself kept.
func TestJQStopsOnSignal(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, "one.yaml"), []byte("name: one\nsteps:\n  - {id: a, type: cli, run: 'echo 1', output_var: a}\noutput: a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "one", "--jq", "def spin: spin; spin"},
		{"list", "--jq", "[range(1e12)] | length"},
		{"runs", "--jq", "last(repeat(.))"},
	} {
		t.Run(args[0], func(t *testing.T) {
			io, _, _, errOut := iostreams.Test()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(1500*time.Millisecond, cancel)
			start := time.Now()
			code := Execute(ctx, io, append(args, "--chains-dir", dir))
			if code != exitInterrupted {
				t.Errorf("exit %d, want 130 (%s)", code, errOut)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if !strings.Contains(errOut.String(), "--jq: interrupted") {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}
