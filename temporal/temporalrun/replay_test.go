package temporalrun

import (
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TestReplayCommittedHistories replays the histories of real runs
// (testdata/*.history.json, written by TestTwoWorkersOnARealServer with
// UPDATE_HISTORIES=1) against today's workflow code: a change that would
// make a run in flight take another path fails here.
func TestReplayCommittedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/*.history.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no histories in testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(ChainWorkflow, workflow.RegisterOptions{Name: WorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replaying %s: %v", f, err)
			}
		})
	}
}
