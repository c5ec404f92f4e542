package text

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run"
)

// TestFailureShowsEachFailedStepsTails: the failure message ends with
// the tails of every failed step's streams, indented, each under its own
// line; a cancelled or skipped step shows none, and JSON mode (tails
// false) leaves them to the result.
func TestFailureShowsEachFailedStepsTails(t *testing.T) {
	res := &run.Result{RunID: "r9", Name: "ci", Status: run.Failed, Error: "step unit failed: exited with code 1",
		Steps: []run.StepResult{
			{ID: "unit", Status: run.StepFailed, Stdout: "--- FAIL: TestX\nFAIL\n"},
			{ID: "slow", Status: run.StepCancelled, Stdout: "half done", Stderr: "stopping"},
			{ID: "lint", Status: run.StepFailed, Stdout: "checked", Stderr: "vet: bad"},
			{ID: "pkg", Status: run.StepSkipped},
		}}
	want := "ci failed (run r9): step unit failed: exited with code 1\nresume it with: chainrun resume r9\n" +
		"--- stdout of unit (last lines) ---\n  --- FAIL: TestX\n  FAIL\n" +
		"--- stdout of lint (last lines) ---\n  checked\n--- stderr of lint (last lines) ---\n  vet: bad"
	if got := Failure(res, true); got != want {
		t.Errorf("failure:\n%s\nwant:\n%s", got, want)
	}
	if got := Failure(res, false); strings.Contains(got, "last lines") {
		t.Errorf("without tails: %q", got)
	}
	if got := OutputTails([]run.StepResult{{ID: "ok", Status: run.StepSucceeded, Stdout: "x"}}); got != "" {
		t.Errorf("a succeeded step's tail: %q", got)
	}
}
