package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxCostIsChecked: a cost cap that is not 0 or more dollars, from the
// flag or the chain, is refused before anything runs (exit 2), naming it.
func TestMaxCostIsChecked(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	os.WriteFile("c.yaml", []byte("name: c\nsteps:\n  - id: a\n    type: cli\n    command: \"true\"\n"), 0o644)
	for _, v := range []string{"-1", "NaN", "+Inf", "lots"} {
		code, _, stderr := chainrunIn(t, "run", "c.yaml", "--max-cost", v)
		if code != 2 || !strings.Contains(stderr, "--max-cost") {
			t.Errorf("--max-cost %s: exit %d %s", v, code, stderr)
		}
	}
	os.WriteFile("neg.yaml", []byte("name: neg\nbudget: {max_cost_usd: -0.5}\nsteps:\n  - id: a\n    type: cli\n    command: \"true\"\n"), 0o644)
	code, _, stderr := chainrunIn(t, "validate", "neg.yaml")
	if code != 2 || !strings.Contains(stderr, "neg.yaml") || !strings.Contains(stderr, "max_cost_usd -0.5") {
		t.Errorf("budget.max_cost_usd -0.5: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); err == nil {
		t.Error("a refused command saved a run")
	}
}
