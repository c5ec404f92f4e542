package cmd

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/gantt"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run"
)

type runsOptions struct {
	f     *factory
	gantt bool
}

func newRunsCmd(f *factory) *cobra.Command {
	opts := &runsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List saved runs, newest first",
		Long: `List the runs saved in the state directory, newest first. A run whose
process died (a crash, kill -9) is listed as interrupted and can be resumed.`,
		Args: exactArgs(0, "no arguments (or: runs show RUN_ID)"),
		RunE: func(*cobra.Command, []string) error { return runRunsList(opts) },
	}
	show := &cobra.Command{
		Use:               "show RUN_ID",
		Short:             "Show a saved run: its steps, or with -o json its last result",
		Long:              "Show a saved run's steps. --gantt prints a Mermaid gantt chart of its last attempt instead, so parallelism and the critical path show.",
		Args:              exactArgs(1, "one run id"),
		ValidArgsFunction: completeRunIDs(f),
		RunE:              func(_ *cobra.Command, args []string) error { return runRunsShow(opts, args[0]) },
	}
	show.Flags().BoolVar(&opts.gantt, "gantt", false, "print a Mermaid gantt chart of the run's timeline")
	cmd.AddCommand(show)
	return cmd
}

func runRunsList(opts *runsOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	st, err := f.stateStore()
	if err != nil {
		return err
	}
	recs, err := st.List()
	if err != nil {
		return err
	}
	out := make([]text.ListedRun, 0, len(recs))
	for _, r := range recs {
		out = append(out, text.ListedRunOf(r))
	}
	if format == "json" {
		return render.PrintJSON(f.io.Out, out)
	}
	return text.Runs(f.io.Out, out)
}

func runRunsShow(opts *runsOptions, id string) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	st, err := f.stateStore()
	if err != nil {
		return err
	}
	// only -o json prints the values the run produced: they are read
	// for it alone
	load := st.Summary
	if format == "json" && !opts.gantt {
		load = st.Load
	}
	saved, err := load(id)
	if err != nil {
		return err
	}
	if opts.gantt {
		spans, err := gantt.ReadSpans(filepath.Join(st.Dir(), "runs", id, "events.jsonl"))
		if err != nil {
			return fmt.Errorf("run %s: reading its event log: %w", id, err)
		}
		return gantt.Write(f.io.Out, saved.Record.Name+" "+id, spans)
	}
	if format == "json" {
		if saved.Result != nil {
			if saved.Record.Status == run.Interrupted {
				saved.Result.Status = run.Interrupted // its process died mid-run: the record says so, the last result cannot
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

// completeRunIDs offers the saved run ids.
func completeRunIDs(f *factory) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		st, err := f.stateStore()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		recs, _ := st.List()
		var ids []string
		for _, r := range recs {
			ids = append(ids, r.RunID)
		}
		return ids, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeTake completes --take with the links of the run being resumed:
// the choices it paused at, or the retry of what failed.
func completeTake(f *factory) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		st, err := f.stateStore()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		sv, err := st.Summary(args[0])
		if err != nil || sv.Result == nil || sv.Result.WorkflowResult == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, l := range sv.Result.Links {
			out = append(out, cobra.CompletionWithDesc(l.Transition, l.Title))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
