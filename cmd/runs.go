package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/gantt"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/store"
	"github.com/spf13/cobra"
)

type runsOptions struct {
	f         *factory
	gantt     string
	limit     int
	chain     string
	statuses  []string
	olderThan string
	keep      int
	dryRun    bool
}

func newRunsCmd(f *factory) *cobra.Command {
	opts := &runsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List saved runs, newest first",
		Long: `List the runs saved in the state directory, newest first: this project's
(those started in the directory of its chainrun.yaml, else of its .git,
else the current one, or below it), every directory's with --all. A run
whose process died (a crash, kill -9) is listed as interrupted and can be
resumed.

Wherever a run id is asked for (resume, runs show, graph --run), "last"
names the newest run of this project (of every directory with --all),
and any part of an id that only one run's id begins or ends with names
that run (the random suffix, the date), wherever it started.`,
		Example: `  chainrun runs --limit 5
  chainrun runs --chain deploy --status paused,failed
  chainrun runs show last`,
		Args: exactArgs(0, "no arguments (or: runs show RUN_ID)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			bindEngine(f, cmd.Flags())
			if d, err := f.durable(cmd.Context()); d != nil || err != nil {
				return withDurable(err, func() error { return listDurable(cmd.Context(), f, d, opts.limit) })
			}
			return runRunsList(opts)
		},
	}
	fl := cmd.Flags()
	fl.IntVarP(&opts.limit, "limit", "n", 0, "list only the newest N runs (0: all)")
	fl.StringVar(&opts.chain, "chain", "", "list only the runs of this chain")
	fl.StringSliceVar(&opts.statuses, "status", nil, "list only runs of this status (repeatable, or comma-separated)")
	_ = cmd.RegisterFlagCompletionFunc("chain", completeChainNames(f))
	_ = cmd.RegisterFlagCompletionFunc("status", fixed(text.StatusChoices()...))
	show := &cobra.Command{
		Use:               "show RUN_ID",
		Short:             "Show a saved run: its steps, or with -o json its last result",
		Long:              "Show a saved run's steps. --gantt prints the timeline of its last attempt instead, so parallelism and the critical path show: as text on a terminal, else as a Mermaid gantt chart (--gantt=text or --gantt=mermaid to choose).",
		Args:              exactArgs(1, "one run id"),
		ValidArgsFunction: completeRunIDs(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			bindEngine(f, cmd.Flags())
			if d, err := f.durable(cmd.Context()); d != nil || err != nil {
				return withDurable(err, func() error { return showDurable(cmd.Context(), f, d, args[0]) })
			}
			defer f.io.StartPager(iostreams.PagerCommand(os.LookupEnv))() // long on a terminal
			return runRunsShow(opts, args[0])
		},
	}
	show.Flags().StringVar(&opts.gantt, "gantt", "", "print the run's timeline: text (the default on a terminal) or mermaid (--gantt=mermaid)")
	show.Flags().Lookup("gantt").NoOptDefVal = "auto"
	defineAllRuns(f, fl)
	defineAllRuns(f, show.Flags())
	defineEngine(f, fl)
	defineEngine(f, show.Flags())
	cmd.AddCommand(show, newRunsPruneCmd(opts))
	return cmd
}

func newRunsPruneCmd(opts *runsOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove saved runs older than a duration, or beyond the newest N",
		Long: `Remove saved runs from the state directory: those that last changed
longer ago than --older-than (36h, 7d, 2w), and those beyond the newest
--keep N; with both, a run goes only when both say so. --chain and
--status choose which runs are looked at (and counted by --keep). A run
a process is driving is never removed. Prints each run removed and the
count; --dry-run prints what would go and removes nothing.`,
		Example: `  chainrun runs prune --older-than 14d
  chainrun runs prune --keep 50 --status succeeded,failed --dry-run`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runRunsPrune(cmd, opts) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.olderThan, "older-than", "", "remove runs that last changed longer ago than this: a Go duration, or days and weeks (7d, 2w)")
	fl.IntVar(&opts.keep, "keep", 0, "keep the newest N runs (of those --chain and --status pick) and remove the rest")
	fl.StringVar(&opts.chain, "chain", "", "remove only runs of this chain")
	fl.StringSliceVar(&opts.statuses, "status", nil, "remove only runs of this status (repeatable, or comma-separated)")
	fl.BoolVar(&opts.dryRun, "dry-run", false, "print what would be removed, and remove nothing")
	_ = cmd.RegisterFlagCompletionFunc("chain", completeChainNames(opts.f))
	_ = cmd.RegisterFlagCompletionFunc("status", fixed(text.StatusChoices()...))
	return cmd
}

func runRunsPrune(cmd *cobra.Command, opts *runsOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	var keep *int
	if cmd.Flags().Changed("keep") {
		keep = &opts.keep
	}
	rule, err := store.NewPruneRule(opts.olderThan, keep, opts.chain, opts.statuses, time.Now())
	if err != nil {
		return err
	}
	rule.DryRun = opts.dryRun
	st, err := f.stateStore()
	if err != nil {
		return err
	}
	pruned, err := st.Prune(rule)
	report, printed := text.PruneReportOf(pruned, opts.dryRun), error(nil)
	if format == "json" {
		printed = render.PrintJSON(f.io.Out, report)
	} else {
		printed = text.Pruned(f.io.Out, f.io.ErrOut, report)
	}
	return errors.Join(err, printed) // what was removed before an error is printed too
}

func runRunsList(opts *runsOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	filter, err := store.NewFilter(opts.chain, opts.statuses, opts.limit)
	if err != nil {
		return err
	}
	filter.Under = f.runsUnder()
	st, err := f.stateStore()
	if err != nil {
		return err
	}
	if format == "json" {
		recs, err := st.Newest(filter)
		return errors.Join(err, render.PrintJSON(f.io.Out, text.ListedRuns(recs)))
	}
	table := text.NewRunsTable(f.io.Out) // it streams: the newest runs go out first
	if err := st.Runs(filter, table.Add); err != nil {
		return err
	}
	if table.Len() == 0 && filter.Under != "" {
		if n, _ := st.Count(); n > 0 {
			fmt.Fprintf(f.io.ErrOut, "no runs started in %s or below; %d of other directories: %s runs --all\n", filter.Under, n, response.Command())
		}
	}
	return table.Close()
}

func runRunsShow(opts *runsOptions, ref string) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	st, id, err := f.runID(ref)
	if err != nil {
		return err
	}
	// only -o json prints the values the run produced: they are read
	// for it alone; and only what is shown is read (the steps' records
	// in the journal are not)
	saved, err := st.Show(id, format == "json" && opts.gantt == "")
	if err != nil {
		return err
	}
	if opts.gantt != "" {
		format, err := render.PictureFormat("--gantt", strings.TrimPrefix(opts.gantt, "auto"), f.io.IsStdoutTTY(), "text", "mermaid", gantt.Formats...)
		if err != nil {
			return err
		}
		tl, err := gantt.Read(filepath.Join(st.Dir(), "runs", id, "events.jsonl"))
		if err != nil {
			return fmt.Errorf("run %s: reading its event log: %w", id, err)
		}
		return gantt.Print(f.io.Out, format, saved.Record.Name+" "+id, tl)
	}
	if format == "json" {
		if saved.Result != nil {
			if saved.Record.Status == record.Interrupted {
				saved.Result.Status = record.Interrupted // its process died mid-run: the record says so, the last result cannot
			}
			return render.PrintJSON(f.io.Out, saved.Result)
		}
		return render.PrintJSON(f.io.Out, saved.Record)
	}
	prices, err := f.prices()
	if err != nil {
		return err
	}
	return text.Run(f.io.Out, saved, prices)
}
