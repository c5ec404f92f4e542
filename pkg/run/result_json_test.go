package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestStepResultKeepsItsWorkingValuesOut: a command's exit code and whole
// stderr, and a task's branch result, serve the run while it goes on; the
// JSON result (-o json, result.json) carries none of them, so a step's
// stderr is never written there whole.
func TestStepResultKeepsItsWorkingValuesOut(t *testing.T) {
	for _, sr := range []record.StepResult{
		{ID: "a", Status: record.StepFailed, ExitCode: 3, ErrOut: "secret-ish stderr", Result: "retry"},
		{ID: "b", Status: record.StepSucceeded, ErrOut: strings.Repeat("x", 1<<16)},
	} {
		data, err := json.Marshal(sr)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"ExitCode", "ErrOut", "Result", "stderr", "xxxx"} {
			if strings.Contains(string(data), key) {
				t.Errorf("%s: the JSON holds %s: %s", sr.ID, key, data[:min(len(data), 200)])
			}
		}
	}
}
