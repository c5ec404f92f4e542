package temporalrun

import (
	"context"
	"strings"
	"testing"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestAPanicOfWorkflowCodeFailsTheRun: a panic of the workflow's code,
// in a step's coroutine or in the main one, ends the run failed, naming
// the fault, instead of failing its workflow tasks for good.
func TestAPanicOfWorkflowCodeFailsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		fault      func(w *chainRun, ctx workflow.Context)
	}{
		{"in a step's coroutine", "assignment to entry in nil map", func(w *chainRun, ctx workflow.Context) {
			r := w.newRunner(withWorkflow(context.Background(), ctx))
			r.Start(0, func(context.Context) dag.Outcome {
				var m map[string]int
				m["x"] = 1
				return dag.Continue
			})
			if _, o := r.Next(); o != dag.Stop {
				t.Errorf("the faulty coroutine's outcome %v, want Stop", o)
			}
			w.raiseFault()
		}},
		{"in the main coroutine", "index out of range", func(w *chainRun, ctx workflow.Context) {
			_ = w.history[len(w.history)]
		}},
		{"in a second coroutine after a good one", "boom", func(w *chainRun, ctx workflow.Context) {
			r := w.newRunner(withWorkflow(context.Background(), ctx))
			r.Start(0, func(context.Context) dag.Outcome { return dag.Continue })
			r.Start(1, func(context.Context) dag.Outcome { panic("boom") })
			r.Next()
			r.Next()
			w.raiseFault()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.RegisterWorkflowWithOptions(func(ctx workflow.Context) (res *record.Result, err error) {
				defer failOnFault(&res, &err)
				tc.fault(&chainRun{}, ctx)
				return &record.Result{Status: record.Succeeded}, nil
			}, workflow.RegisterOptions{Name: "faulty"})
			env.ExecuteWorkflow("faulty")
			if !env.IsWorkflowCompleted() {
				t.Fatal("the run did not end")
			}
			err := env.GetWorkflowError()
			if err == nil || !strings.Contains(err.Error(), "a fault in the chain workflow's code") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run error %v, want the fault named (%s)", err, tc.want)
			}
		})
	}
}
