package run

import (
	"context"
	"errors"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestAWorkflowNeedsADriver: a program that links no workflow driver
// refuses a state workflow before anything runs, saying what it lacks,
// and still runs DAG chains.
func TestAWorkflowNeedsADriver(t *testing.T) {
	saved := workflows
	workflows = WorkflowDriver{}
	defer func() { workflows = saved }()
	wf := load(t, "version: \"1\"\nworkflows:\n  w:\n    initialState: s\n    states:\n      s:\n        terminal: true\n")
	_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: wf})
	if !errors.Is(err, errNoWorkflowDriver) {
		t.Fatalf("a workflow without a driver: %v, want errNoWorkflowDriver", err)
	}
	res := runChain(t, "name: d\nsteps:\n  - id: a\n    type: noop\n", nil)
	if res.Status != record.Succeeded {
		t.Fatalf("a DAG chain without a workflow driver: %s %s", res.Status, res.Error)
	}
}
