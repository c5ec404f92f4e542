package text

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// TestFailureShowsEachFailedStepsTails: the failure message ends with
// the tails of every failed step's streams, indented, each under its own
// line; a cancelled or skipped step shows none, and JSON mode (tails
// false) leaves them to the result.
func TestFailureShowsEachFailedStepsTails(t *testing.T) {
	res := &record.Result{RunID: "r9", Name: "ci", Status: record.Failed, Error: "step unit failed: exited with code 1",
		Steps: []record.StepResult{
			{ID: "unit", Status: record.StepFailed, Stdout: "--- FAIL: TestX\nFAIL\n"},
			{ID: "slow", Status: record.StepCancelled, Stdout: "half done", Stderr: "stopping"},
			{ID: "lint", Status: record.StepFailed, Stdout: "checked", Stderr: "vet: bad"},
			{ID: "pkg", Status: record.StepSkipped},
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
	if got := OutputTails([]record.StepResult{{ID: "ok", Status: record.StepSucceeded, Stdout: "x"}}); got != "" {
		t.Errorf("a succeeded step's tail: %q", got)
	}
}

// TestApprovalsShowTimesAsRunsDo: SINCE is in seconds, UTC, as runs
// prints STARTED, whatever precision or zone the record holds; a time
// that does not parse is shown as it is.
func TestApprovalsShowTimesAsRunsDo(t *testing.T) {
	for _, tt := range []struct{ since, want string }{
		{"2026-11-27T23:34:05.967287547Z", "2026-11-27T23:34:05Z"},
		{"2026-11-28T01:04:05.5+02:00", "2026-11-27T23:04:05Z"},
		{"2026-11-27T23:34:05Z", "2026-11-27T23:34:05Z"},
		{"yesterday", "yesterday"},
	} {
		var b strings.Builder
		if err := Approvals(&b, []store.Approval{{RunID: "r1", Name: "n", State: "s", Since: tt.since}}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		if f := strings.Fields(lines[1]); len(f) < 5 || f[4] != tt.want {
			t.Errorf("since %q: table\n%s\nwant %s", tt.since, b.String(), tt.want)
		}
	}
}
