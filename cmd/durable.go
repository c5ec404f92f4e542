package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/inputs"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const (
	keyEngine            = "engine"
	keyTemporalAddress   = "temporal_address"
	keyTemporalNamespace = "temporal_namespace"
	keyTemporalQueue     = "temporal_task_queue"
	keyLocalActivities   = "temporal_local_activities"
	keyTemporalHeartbeat = "temporal_heartbeat"
)

// Extension and DurableConfig are the durable engine a build adds
// (pkg/run), named here for the build's main.
type (
	Extension     = run.Extension
	DurableConfig = run.DurableConfig
)

// extension is the build's durable engine, if it has one.
var extension *Extension

// MainWith is Main in a build that adds a durable engine.
func MainWith(ext Extension) int {
	extension = &ext
	return Main()
}

// defineEngine adds the flags that choose and reach the engine.
func defineEngine(f *factory, fl *pflag.FlagSet) {
	fl.String("engine", "", "where the run's steps run: local (this process, the default) or temporal (env CHAINRUN_ENGINE)")
	fl.String("temporal-address", "", "the Temporal frontend, HOST:PORT (default 127.0.0.1:7233)")
	fl.String("namespace", "", "the Temporal namespace (default: default)")
	fl.String("task-queue", "", "the Temporal task queue of chainrun workers (default: chainrun)")
	hideDurable(fl, "engine", "temporal-address", "namespace", "task-queue")
}

// hideDurable keeps the durable engine's flags out of the help and
// completion of a build without one (as its commands are, by their
// Hidden): there they only answer that the build has none, which they
// still do, so a script behaves the same on either build.
func hideDurable(fl *pflag.FlagSet, names ...string) {
	for _, name := range names {
		fl.Lookup(name).Hidden = extension == nil
	}
}

// bindEngine ties the running command's engine flags to their keys
// (several commands define them: the one that runs binds them).
func bindEngine(f *factory, fl *pflag.FlagSet) {
	bindFlag(f.v, keyEngine, fl.Lookup("engine"))
	bindFlag(f.v, keyTemporalAddress, fl.Lookup("temporal-address"))
	bindFlag(f.v, keyTemporalNamespace, fl.Lookup("namespace"))
	bindFlag(f.v, keyTemporalQueue, fl.Lookup("task-queue"))
}

// durableConfig is the durable engine's settings, nil for the local
// engine.
func (f *factory) durableConfig(always bool) (*DurableConfig, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	name := v.GetString(keyEngine)
	switch {
	case (name == "" || name == "local") && !always:
		return nil, nil
	case name != "" && name != "local" && name != "temporal":
		return nil, usagef("--engine %q: use local or temporal", name)
	case extension == nil:
		return nil, usagef("this chainrun is built without the Temporal engine: use the chainrun-temporal build (docs/temporal.md)")
	}
	c := &DurableConfig{Address: v.GetString(keyTemporalAddress), Namespace: v.GetString(keyTemporalNamespace),
		TaskQueue: v.GetString(keyTemporalQueue), LocalActivities: v.GetString(keyLocalActivities), Parallel: v.GetInt(keyMaxParallel), Lenient: !v.GetBool(keyStrictVariables), Log: f.io.ErrOut}
	c.Parse = func(file string, src []byte) (*chain.Loaded, error) {
		opts, err := f.chainOptions()
		if err != nil {
			return nil, err
		}
		return load.Parse(file, src, opts)
	}
	if h := v.GetString(keyTemporalHeartbeat); h != "" {
		if c.Heartbeat, err = time.ParseDuration(h); err != nil || c.Heartbeat < time.Second {
			return nil, usagef("temporal_heartbeat %q: want a duration of 1s or more (20s, 1m)", h)
		}
	}
	switch c.LocalActivities {
	case "", "cheap", "none", "all":
	default:
		return nil, usagef("temporal_local_activities %q: use cheap, none or all", c.LocalActivities)
	}
	return c, nil
}

// durable connects to the durable engine the config chooses, nil for the
// local engine.
func (f *factory) durable(ctx context.Context) (run.Durable, error) {
	c, err := f.durableConfig(false)
	if c == nil || err != nil {
		return nil, err
	}
	return extension.Connect(ctx, *c)
}

// runDurable runs a checked request on a durable engine: --detach prints
// the run id, else the run is followed to its end or pause.
func runDurable(ctx context.Context, f *factory, d run.Durable, req run.Request, format string, view *runView, detach bool, flags *pflag.FlagSet) error {
	if detach {
		id, err := d.Start(ctx, req)
		if err != nil {
			return err
		}
		if format == "json" {
			return render.PrintJSON(f.io.Out, map[string]string{"run_id": id})
		}
		_, err = fmt.Fprintln(f.io.Out, id)
		return err
	}
	if view.trace != nil && req.Events == nil {
		req.Events = view.trace // the run's events as the client follows them
	}
	res, err := d.Run(ctx, req)
	if err != nil {
		return err
	}
	return f.printDurable(format, res, view.said, req.Chain, flags)
}

// printDurable prints a durable run's result, and the engine flags of
// this command line that its resume commands need (text.EngineNote).
func (f *factory) printDurable(format string, res *record.Result, said bool, c *chain.Chain, flags *pflag.FlagSet) error {
	given := map[string]string{}
	flags.Visit(func(fl *pflag.Flag) { given[fl.Name] = fl.Value.String() })
	if note := text.EngineNote(res, given); format == "text" && note != "" {
		fmt.Fprintln(f.io.ErrOut, note)
	}
	return f.printResult(format, res, said, c)
}

// resumeDurable answers a durable run's decision (--take, its --arg and
// --ack), or retries a failed run (a plain resume), and follows it.
func resumeDurable(cmd *cobra.Command, f *factory, d run.Durable, opts *resumeOptions, format string) error {
	args, err := inputs.ParseArgs(opts.args, opts.argsF)
	if err != nil {
		return err
	}
	// the view first: a flag it refuses is refused before the take is sent
	_, view, err := f.newEngine(engineOptions{verbose: verbose(cmd), quiet: opts.quiet, keepGoing: opts.keepGoing, flags: cmd.Flags()})
	if err != nil {
		return err
	}
	take := run.TakeRequest{Take: opts.take, Args: args, Acks: opts.acks, Rerun: opts.rerun}
	if err := d.Take(cmd.Context(), opts.runID, take); err != nil {
		return err
	}
	res, err := d.Wait(cmd.Context(), opts.runID, view.sinks)
	if err != nil {
		return err
	}
	return f.printDurable(format, res, view.said, nil, cmd.Flags())
}

// listDurable prints a durable engine's latest runs.
func listDurable(ctx context.Context, f *factory, d run.Durable, limit int) error {
	format, err := f.format()
	if err != nil {
		return err
	}
	runs, err := d.Runs(ctx, limit)
	if err != nil {
		return err
	}
	if format == "json" {
		return render.PrintJSON(f.io.Out, runs)
	}
	return text.DurableRuns(f.io.Out, runs)
}

func newCancelCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "cancel RUN_ID",
		Hidden: extension == nil,
		Short:  "Stop a run of a durable engine (--engine temporal)",
		Long: `Ask a run of a durable engine to stop: its running steps are cancelled
(their process groups get SIGTERM, then SIGKILL) and it ends cancelled.
A local run stops with Ctrl-C or a signal to its chainrun process.`,
		Example: `  chainrun cancel 20261124-101500-000-a1b2c3 --engine temporal`,
		Args:    exactArgs(1, "one run id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			bindEngine(f, cmd.Flags())
			d, err := f.durable(cmd.Context())
			if err != nil {
				return err
			}
			if d == nil {
				return usagef("cancel stops runs of a durable engine (--engine temporal); stop a local run with Ctrl-C or kill")
			}
			if err := d.Cancel(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(f.io.ErrOut, "chainrun: run %s asked to stop\n", args[0])
			return nil
		},
	}
	defineEngine(f, cmd.Flags())
	return cmd
}

func newWorkerCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "worker",
		Hidden: extension == nil,
		Short:  "Run the steps of chains started with --engine temporal",
		Long: `Host chainrun's chain workflow and its steps for a Temporal service until
stopped. Start as many workers, on as many machines, as the work needs:
they share the task queue. Each runs steps with its own configuration
(models, keys, cache, chains directory), as chainrun run would here.`,
		Example: `  chainrun worker --temporal-address 127.0.0.1:7233 --task-queue chainrun`,
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			bindEngine(f, cmd.Flags())
			bindShaping(f, cmd.Flags())
			c, err := f.durableConfig(true)
			if err != nil {
				return err
			}
			engine, _, err := f.newEngine(engineOptions{verbose: verbose(cmd), flags: cmd.Flags()})
			if err != nil {
				return err
			}
			steps, ok := engine.(run.TaskRunner)
			if !ok {
				return fmt.Errorf("worker: the engine of this build runs no steps here")
			}
			c.Steps = steps
			return extension.Serve(cmd.Context(), *c)
		},
	}
	defineEngine(f, cmd.Flags())
	return cmd
}

// withDurable runs do unless connecting failed.
func withDurable(err error, do func() error) error {
	if err != nil {
		return err
	}
	return do()
}

// showDurable prints a durable run's result as it stands.
func showDurable(ctx context.Context, f *factory, d run.Durable, id string) error {
	format, err := f.format()
	if err != nil {
		return err
	}
	res, err := d.Show(ctx, id)
	if err != nil {
		return err
	}
	return f.printResult(format, res, false, nil)
}
