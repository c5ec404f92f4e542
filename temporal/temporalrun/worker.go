package temporalrun

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/chainrun/chainrun/cmd"
	"github.com/chainrun/chainrun/pkg/run"
)

// Defaults of the settings that reach Temporal.
const (
	DefaultAddress   = "127.0.0.1:7233"
	DefaultNamespace = "default"
	DefaultTaskQueue = "chainrun"
)

// Extension is the Temporal engine as the CLI's build takes it
// (cmd.MainWith).
func Extension() cmd.Extension {
	return cmd.Extension{Name: "temporal", Connect: connect, Serve: Serve}
}

// dial reaches the Temporal frontend; its log goes to w at warn level
// and above.
func dial(c cmd.DurableConfig, w io.Writer) (client.Client, error) {
	opts := client.Options{HostPort: cmp.Or(c.Address, DefaultAddress), Namespace: cmp.Or(c.Namespace, DefaultNamespace),
		Logger: log.NewStructuredLogger(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})))}
	cl, err := client.Dial(opts)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s (namespace %s): %w", opts.HostPort, opts.Namespace, err)
	}
	return cl, nil
}

func connect(_ context.Context, c cmd.DurableConfig) (run.Durable, error) {
	cl, err := dial(c, c.Log)
	if err != nil {
		return nil, err
	}
	return &Engine{Client: cl, Namespace: cmp.Or(c.Namespace, DefaultNamespace), TaskQueue: cmp.Or(c.TaskQueue, DefaultTaskQueue),
		Parallel: c.Parallel, LocalActivities: c.LocalActivities, Lenient: c.Lenient, Heartbeat: c.Heartbeat}, nil
}

// Register puts the chain workflow and the step activity on w.
func Register(w worker.Registry, steps *Steps) {
	w.RegisterWorkflowWithOptions(ChainWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterActivityWithOptions(steps.Run, activity.RegisterOptions{Name: StepActivity})
}

// Serve hosts the chain workflow and the step activity on the task
// queue until ctx ends.
func Serve(ctx context.Context, c cmd.DurableConfig) error {
	cl, err := dial(c, c.Log)
	if err != nil {
		return err
	}
	defer cl.Close()
	queue := cmp.Or(c.TaskQueue, DefaultTaskQueue)
	w := worker.New(cl, queue, worker.Options{})
	Register(w, &Steps{Engine: c.Steps, Parse: c.Parse})
	fmt.Fprintf(c.Log, "chainrun worker: serving task queue %s of %s (namespace %s)\n", queue, cmp.Or(c.Address, DefaultAddress), cmp.Or(c.Namespace, DefaultNamespace))
	stop := make(chan any)
	go func() {
		<-ctx.Done()
		close(stop)
	}()
	return w.Run(stop)
}
