package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/store"
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

// listedRun is one entry of `runs -o json`.
type listedRun struct {
	RunID      string `json:"run_id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	StartedAt  string `json:"started_at"`
	DurationMS int64  `json:"duration_ms"`
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
	out := make([]listedRun, 0, len(recs))
	for _, r := range recs {
		out = append(out, listedRun{RunID: r.RunID, Name: r.Name, Status: r.Status, StartedAt: startedAt(r.RunID), DurationMS: r.DurationMS})
	}
	if format == "json" {
		enc := json.NewEncoder(f.io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(f.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN ID\tCHAIN\tSTATUS\tSTARTED\tDURATION")
	for _, r := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.RunID, r.Name, r.Status, r.StartedAt, fmtDuration(time.Duration(r.DurationMS)*time.Millisecond))
	}
	return tw.Flush()
}

// startedAt reads the UTC start time a run id begins with.
func startedAt(runID string) string {
	t, err := time.Parse("20060102-150405", runStart(runID))
	if err != nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
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
	saved, err := st.Load(id)
	if err != nil {
		return err
	}
	if opts.gantt {
		spans, err := readSpans(eventsPath(st.Dir(), id))
		if err != nil {
			return fmt.Errorf("run %s: reading its event log: %w", id, err)
		}
		return writeGantt(f.io.Out, saved.Record.Name+" "+id, spans)
	}
	if format == "json" {
		enc := json.NewEncoder(f.io.Out)
		enc.SetIndent("", "  ")
		if saved.Result != nil {
			saved.Result.Status = run.Status(statusOf(saved.Record.Status, string(saved.Result.Status)))
			return enc.Encode(saved.Result)
		}
		return enc.Encode(saved.Record)
	}
	prices, err := f.prices()
	if err != nil {
		return err
	}
	r := saved.Record
	fmt.Fprintf(f.io.Out, "run %s  chain %s  %s\n", r.RunID, r.Name, r.Status)
	if r.Error != "" {
		fmt.Fprintf(f.io.Out, "error: %s\n", r.Error)
	}
	if len(saved.Transitions) > 0 || saved.Result != nil && saved.Result.WorkflowResult != nil {
		return writeTransitions(f.io.Out, saved, prices)
	}
	tw := tabwriter.NewWriter(f.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STEP\tSTATUS\tATTEMPTS\tDURATION\tMODEL\tTOKENS\tCOST")
	var total costSum
	if saved.Result != nil {
		for _, s := range saved.Result.Steps {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", s.ID, s.Status, s.Attempts, fmtDuration(time.Duration(s.DurationMS)*time.Millisecond),
				s.Model, tokensOf(s.Usage), total.add(prices, s.Model, s.Usage))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return total.write(f.io.Out, saved.Result)
}

// tokensOf shows a step's tokens as input→output.
func tokensOf(u *run.Usage) string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf("%d→%d", u.InputTokens, u.OutputTokens)
}

// costSum adds up what a run's model calls cost, noting calls to models
// whose price is not known.
type costSum struct {
	usd     float64
	priced  bool
	unknown []string
}

// add counts one step's cost and returns it for its row.
func (c *costSum) add(prices *llm.Prices, model string, u *run.Usage) string {
	if u == nil || model == "" || u.InputTokens+u.OutputTokens == 0 {
		return ""
	}
	p, ok := prices.Of(model)
	if !ok {
		if !contains(c.unknown, model) {
			c.unknown = append(c.unknown, model)
		}
		return "?"
	}
	usd := p.Cost(llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens})
	c.usd += usd
	c.priced = true
	return fmtUSD(usd)
}

// write prints the run's usage and cost under its table.
func (c *costSum) write(w io.Writer, res *run.Result) error {
	if res == nil || res.Usage.LLMCalls == 0 && res.Usage.Cached == 0 {
		return nil
	}
	u := res.Usage
	line := fmt.Sprintf("usage: %d model calls, %d cached, %d→%d tokens", u.LLMCalls, u.Cached, u.InputTokens, u.OutputTokens)
	if c.priced {
		line += ", cost " + fmtUSD(c.usd)
	}
	if len(c.unknown) > 0 {
		line += " (no price for " + strings.Join(c.unknown, ", ") + ": set prices in config)"
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

func fmtUSD(usd float64) string {
	if usd > 0 && usd < 0.01 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// writeTransitions shows a workflow run: where it stands, every
// transition of every call in order, and what may come next.
func writeTransitions(w io.Writer, saved *store.Saved, prices *llm.Prices) error {
	if res := saved.Result; res != nil && res.WorkflowResult != nil {
		fmt.Fprintf(w, "state: %s\n", res.State)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FROM\tTRANSITION\tTO\tDECIDED BY\tSTEP\tDURATION\tTOKENS\tCOST")
	var total costSum
	for _, t := range saved.Transitions {
		decided, step, dur, tokens, cost := t.DecidedBy, "", "", "", ""
		if decided == "" {
			decided = "-"
		}
		if t.Result != "" {
			decided = "result " + t.Result
		}
		if s := t.Step; s != nil {
			step = string(s.Status)
			dur = fmtDuration(time.Duration(s.DurationMS) * time.Millisecond)
			tokens = tokensOf(s.Usage)
			cost = total.add(prices, s.Model, s.Usage)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.From, t.Transition, t.To, decided, step, dur, tokens, cost)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := total.write(w, saved.Result); err != nil {
		return err
	}
	if res := saved.Result; res != nil && res.WorkflowResult != nil && len(res.Links) > 0 {
		fmt.Fprintln(w, "next:")
		for _, l := range res.Links {
			fmt.Fprintf(w, "  %s  # %s\n", resumeCommand(res.RunID, l), l.Title)
		}
	}
	return nil
}

// statusOf prefers the record's status (interrupted when its process
// died mid-run) over the last result's.
func statusOf(record, result string) string {
	if record == "interrupted" {
		return record
	}
	return result
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
		sv, err := st.Load(args[0])
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
