package run

import (
	"context"
	"io"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// Extension is what a build of chainrun with a durable engine adds: the
// Temporal build (module temporal/, docs/temporal.md) passes one to
// cmd.MainWith. The default build has none and says where to get it.
type Extension struct {
	// Name is the engine's name, as --engine and config engine give it.
	Name string
	// Connect reaches the engine's service for the CLI's runs.
	Connect func(ctx context.Context, c DurableConfig) (Durable, error)
	// Serve hosts the chain workflow and the steps of runs until ctx
	// ends (chainrun worker).
	Serve func(ctx context.Context, c DurableConfig) error
}

// TaskRunner runs the steps a durable engine's worker is given: one step
// of a chain as a task (an activity), as a local run would run it. It is
// all a worker needs of an engine, so cmd hands the worker whichever
// engine it built without naming it (Local is one).
type TaskRunner interface {
	// RunTask runs step t of c; a step that failed says so in its result.
	RunTask(ctx context.Context, c *chain.Chain, t task.StepTask) task.StepDone
}

var _ TaskRunner = (*Local)(nil)

// DurableConfig is what config and flags say of a durable engine.
type DurableConfig struct {
	Address, Namespace, TaskQueue string
	// LocalActivities chooses the steps that run as local activities:
	// cheap (transforms and other steps without I/O), none or all.
	LocalActivities string
	// Parallel is --max-parallel: the steps of one run at once.
	Parallel int
	// Lenient keeps unresolved references literal (strict_variables: false).
	Lenient bool
	// Heartbeat is how long a step's worker may stay silent before its
	// step is given to another worker (0: the engine's default).
	Heartbeat time.Duration
	// Steps runs the steps a worker is given, set up as a local run's.
	Steps TaskRunner
	// Parse reads a chain file as this configuration reads them.
	Parse func(file string, src []byte) (*chain.Loaded, error)
	// Log is where a worker says what it does.
	Log io.Writer
}
