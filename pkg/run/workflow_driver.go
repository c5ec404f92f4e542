package run

import (
	"errors"

	"github.com/chainrun/chainrun/pkg/chain"
)

// WorkflowDriver is what runs a state workflow, as the DAG driver runs a
// DAG chain: the flow driver (pkg/run/flow) registers it, so the engine
// knows no workflow's states, transitions or decisions, only that a
// workflow is driven by it.
type WorkflowDriver struct {
	// New sets up the drive of workflow run x: its replayed history, the
	// decision a --take names (refused before anything runs when it
	// names none of the run's links).
	New func(x *Execution, req Request) (Driver, error)
	// Preflight finds, before any step runs, what the workflow's guards
	// need and cannot have (acknowledgments no transition reads).
	Preflight func(c *chain.Chain, r Resolvers) error
	// Admit refuses, before a run starts, a run whose decisions nobody
	// here can make (a decider the request does not give).
	Admit func(l *Local, c *chain.Chain, req Request) error
}

// workflows is the registered workflow driver.
var workflows WorkflowDriver

// RegisterWorkflowDriver sets the driver of state workflows; pkg/run/flow
// calls it in its init. A second call replaces the first.
func RegisterWorkflowDriver(d WorkflowDriver) { workflows = d }

// errNoWorkflowDriver: a state workflow is asked to run by a program that
// links no workflow driver.
var errNoWorkflowDriver = errors.New("this program runs no state workflows: it links no workflow driver (pkg/builtin)")

// workflowDriver is the registered driver, or an error saying none is
// linked (a program that runs workflows imports pkg/builtin).
func workflowDriver() (WorkflowDriver, error) {
	if workflows.New == nil {
		return workflows, errNoWorkflowDriver
	}
	return workflows, nil
}
