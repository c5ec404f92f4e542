package cmd

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// TestFlowgateV06FilesLoad validates every workflow file of mcp-flowgate's
// v0.6 branch (feat/agent-resolver at 08c09bd, Apache-2.0: its LICENSE is
// beside them), kept in testdata/flowgate-v06 as its repository lays them
// out, with the scripts-library/ its capabilities run. Each loads, but for
// those below, which are refused naming the feature they need.
func TestFlowgateV06FilesLoad(t *testing.T) {
	files, loaded := loadEach(t, filepath.Join("testdata", "flowgate-v06"), map[string]string{})
	if files != 64 {
		t.Errorf("%d workflow files, want the branch's 64", files)
	}
	t.Logf("%d of %d files load", loaded, files)
}

// loadEach validates every workflow file under root (its scripts-library/
// left out) with an empty chains directory: each loads, but those refused
// names (by path under root), which must be refused (exit 2) naming what
// it says, by validate and run --dry-run alike. It returns how many files
// there were and how many loaded.
func loadEach(t *testing.T, root string, refused map[string]string) (files, loaded int) {
	t.Helper()
	chains := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" || strings.Contains(path, "scripts-library") {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		io, _, out, errOut := iostreams.Test()
		code := Execute(context.Background(), io, []string{"validate", "--chains-dir", chains, path})
		want, refuse := refused[rel]
		switch {
		case code == 0 && !refuse:
			loaded++
		case code == 0:
			t.Errorf("%s loads: take it off the refused list", rel)
		case !refuse:
			t.Errorf("%s: exit %d\n%s%s", rel, code, out, errOut)
		case code != exitUsage || !strings.Contains(errOut.String(), want):
			t.Errorf("%s: exit %d, want 2 naming %s\n%s", rel, code, want, errOut)
		default:
			io, _, _, dryErr := iostreams.Test()
			if code := Execute(context.Background(), io, []string{"run", "--chains-dir", chains, path, "--dry-run"}); code != exitUsage || !strings.Contains(dryErr.String(), want) {
				t.Errorf("%s: run --dry-run exit %d, not refused as validate refuses it\n%s", rel, code, dryErr)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, loaded
}

// runCase is one run of a peer's workflow: the arguments after
// `chainrun`, and the exit code and text the run must give.
type runCase struct {
	name string
	args []string
	code int
	says string
}

// runEach runs each case as a subtest.
func runEach(t *testing.T, cases []runCase) {
	t.Helper()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			io, _, out, errOut := iostreams.Test()
			code := Execute(context.Background(), io, tc.args)
			if code != tc.code || !strings.Contains(out.String()+errOut.String(), tc.says) {
				t.Errorf("exit %d, want %d saying %q\n%s%s", code, tc.code, tc.says, out, errOut)
			}
		})
	}
}

// TestFlowgateV06ExamplesRun runs, with no inputs, each workflow of the
// v0.6 branch's examples whose executors are local (noop, parallel,
// scripts that echo): each ends, or pauses at its first decision, or
// fails as mcp-flowgate would, for a reason of the file's own.
func TestFlowgateV06ExamplesRun(t *testing.T) {
	const ends, pauses = 0, exitPaused
	cases := []struct {
		file, workflow string
		code           int
		says           string
	}{
		{"pattern-dynamic-fanout/gateway.yaml", "dynamic_fanout", ends, ""},
		{"pattern-output-mapping/gateway.yaml", "mapping_arithmetic", ends, ""},
		{"pattern-output-mapping/gateway.yaml", "mapping_concat", ends, ""},
		{"pattern-output-mapping/gateway.yaml", "mapping_paths", ends, ""},
		{"pattern-output-mapping/gateway.yaml", "mapping_projection", ends, ""},
		{"pattern-output-mapping/gateway.yaml", "mapping_set", ends, ""},
		{"pattern-parallel/gateway.yaml", "parallel_all", ends, ""},
		{"pattern-parallel/gateway.yaml", "parallel_any", ends, ""},
		{"pattern-parallel/gateway.yaml", "parallel_at_least", ends, ""},
		{"pattern-parallel/gateway.yaml", "parallel_percent", ends, ""},
		{"pattern-recovery/gateway.yaml", "recovery_demo", ends, ""},
		{"pattern-evidence-quorum/gateway.yaml", "evidence_quorum", pauses, "paused at gate"},
		{"pattern-mock-test/gateway.yaml", "mock_test_demo", pauses, "paused at first"},
		{"swe-agent.yaml", "swe_agent", pauses, "paused at intake"},
		{"zed-gateway/gateway.yaml", "governed_change", pauses, "paused at planning"},
		{"zed-gateway/gateway.yaml", "tdd", pauses, "paused at red"},
		// the file's guards read `result`, which nothing in it sets: no
		// transition is allowed, and a decision point then waits, as
		// mcp-flowgate's does (peer-fidelity F10)
		{"pattern-circuit-breaker/gateway.yaml", "circuit_breaker_demo", pauses, "selection_error: state action: no transition is viable"},
		// no evidence of kind human_review was recorded: it waits at gate
		{"pattern-evidence-quorum/gateway.yaml", "evidence_with_confidence", pauses, "selection_error: state gate: no transition is viable"},
		// the file maps an object (the join's summary) into an array slot
		{"pattern-dynamic-fanout/gateway.yaml", "dynamic_fanout_empty", exitFailed, `blackboard slot results: {"cancelled_count":0`},
		// the file maps an integer (failed_count) into a boolean slot
		{"pattern-parallel/gateway.yaml", "parallel_all_continue", exitFailed, "blackboard slot any_failed: 0 does not fit"},
	}
	var runs []runCase
	for _, tc := range cases {
		dir := filepath.Join("testdata", "flowgate-v06", "examples", filepath.Dir(tc.file))
		runs = append(runs, runCase{tc.workflow, []string{"--chains-dir", dir, "run", tc.workflow, "-q"}, tc.code, tc.says})
	}
	runEach(t, runs)
}
