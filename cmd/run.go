package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/store"
)

type runOptions struct {
	f           *factory
	chain       string
	inputs      []string
	inputFile   string
	maxParallel int
	noCache     bool
	dryRun      bool
	model       string
	maxTokens   int
	verbose     bool
	quiet       bool
	agentModel  string
	grants      []string
}

func newRunCmd(f *factory) *cobra.Command {
	opts := &runOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run CHAIN",
		Short: "Run a chain by name (or a chain file by path)",
		Long: `Run a chain. CHAIN is the name of a chain in the chains directory, or the
path of a chain file. Inputs come from --input key=value (key=@file reads
a file) and --input-file (a YAML or JSON mapping); --input wins.

With --output text (the default) stdout holds only the chain's output, so
$(chainrun run x) works; progress goes to stderr. With --output json stdout
holds one JSON object describing the run, whatever its outcome.

A state workflow runs its deterministic transitions on its own and pauses
(exit 3) at a decision point, printing the links to choose from; continue
with chainrun resume RUN_ID --take TRANSITION, or let a model decide with
--agent-model. Every run is saved and can be resumed.`,
		Example: `  chainrun run deploy --input service=payment-api
  chainrun run ./chains/report.yaml --input-file inputs.yaml -o json
  chainrun run deploy --input service=x --dry-run`,
		Args:              exactArgs(1, "one chain name or file"),
		ValidArgsFunction: completeChainNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.chain = args[0]
			return runRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&opts.inputs, "input", "i", nil, "input value key=value or key=@file (repeatable)")
	fl.StringVar(&opts.inputFile, "input-file", "", "YAML or JSON file of input values")
	fl.IntVar(&opts.maxParallel, "max-parallel", 0, "most steps running at once (default: CPUs, at least 4)")
	fl.Int("max-parallel-llm", 0, "most requests in flight to each model provider (default: no cap)")
	fl.BoolVar(&opts.noCache, "no-cache", false, "ignore cached LLM results")
	fl.BoolVar(&opts.dryRun, "dry-run", false, "print each resolved step and run nothing")
	fl.StringVar(&opts.model, "model", "", "model for LLM steps that name none (provider/model)")
	fl.IntVar(&opts.maxTokens, "max-tokens", 0, "stop the run before a model call once this many tokens are used")
	fl.BoolVarP(&opts.verbose, "verbose", "v", false, "stream each step's output to stderr, prefixed with its id")
	fl.BoolVarP(&opts.quiet, "quiet", "q", false, "print no progress, only the result and errors")
	fl.StringVar(&opts.agentModel, "agent-model", "", "let this model decide a workflow's agent decision points instead of pausing")
	fl.StringArrayVar(&opts.grants, "grant", nil, "allow agent steps to call this tool although they do not list it (repeatable)")
	_ = cmd.RegisterFlagCompletionFunc("input", completeInputKeys(f))
	bindFlag(f.v, keyMaxParallel, fl.Lookup("max-parallel"))
	bindFlag(f.v, keyModel, fl.Lookup("model"))
	bindFlag(f.v, keyMaxParallelLLM, fl.Lookup("max-parallel-llm"))
	return cmd
}

func runRun(cmd *cobra.Command, opts *runOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	inputs, err := parseInputs(opts.inputs, opts.inputFile)
	if err != nil {
		return err
	}
	loaded, err := f.resolveChain(opts.chain)
	if err != nil {
		return err
	}
	if len(loaded.Chains) > 1 && loaded.Named(opts.chain) == nil {
		names := make([]string, len(loaded.Chains))
		for i, c := range loaded.Chains {
			names[i] = c.Name
		}
		return usagef("%s holds %d workflows (%s): run one by name, with --chains-dir set to its directory", opts.chain, len(names), strings.Join(names, ", "))
	}
	if !opts.quiet {
		for _, w := range loaded.Warnings {
			fmt.Fprintln(f.io.ErrOut, w.String())
		}
	}
	engine, sinks, err := f.newEngine(engineOptions{verbose: opts.verbose, quiet: opts.quiet, noCache: opts.noCache})
	if err != nil {
		return err
	}
	if opts.maxTokens < 0 {
		return usagef("--max-tokens must be 0 (no cap) or more")
	}
	granted, err := grants(loaded.Chain, opts.grants)
	if err != nil {
		return err
	}
	req := run.Request{Chain: loaded.Chain, Inputs: inputs, MaxTokens: opts.maxTokens,
		AgentModel: opts.agentModel, Human: f.humanDecider(), Grants: granted, Ask: f.toolAsker()}
	if opts.dryRun {
		plan, err := engine.Plan(req)
		if err != nil {
			return err
		}
		return printPlan(f.io.Out, format, loaded.Chain, plan)
	}
	res, err := runSaved(cmd.Context(), f, engine, sinks, req, inputs)
	if err != nil {
		return err
	}
	reportGitHub(sinks, loaded.Chain, res)
	return printResult(f.io.Out, f.io.ErrOut, format, res)
}

// runSaved runs the chain with every step saved in the state directory,
// so the run can be resumed. A state directory that cannot be written is
// a warning: the run goes on unsaved, and its result is still printed.
func runSaved(ctx context.Context, f *factory, engine *run.Local, sinks *fanout, req run.Request, inputs map[string]string) (*run.Result, error) {
	req.RunID = run.NewRunID(time.Now())
	st, err := f.stateStore()
	if err != nil {
		return nil, err
	}
	rec := newRecord(req.Chain, req.RunID, inputs)
	if opts, err := f.chainOptions(); err == nil {
		rec.LenientVariables = opts.LenientVariables
	}
	saved, serr := st.Create(rec, req.Chain.Source)
	if serr != nil {
		fmt.Fprintf(f.io.ErrOut, "chainrun: warning: this run is not saved and cannot be resumed: %v\n", serr)
		return engine.Run(ctx, req)
	}
	res, err := driveSaved(ctx, engine, sinks, req, saved)
	if err != nil {
		// refused before any step ran: nothing to keep
		_ = saved.Discard()
	}
	return res, err
}

// driveSaved runs (or resumes) a saved run: steps and events go to its
// directory, and the result is recorded when the attempt ends.
func driveSaved(ctx context.Context, engine *run.Local, sinks *fanout, req run.Request, saved *store.Run) (*run.Result, error) {
	sinks.add(saved)
	req.Journal = saved
	req.OutputDir = filepath.Join(saved.Dir(), "outputs")
	if err := saved.Begin(); err != nil {
		return nil, err
	}
	res, err := engine.Run(ctx, req)
	if err != nil {
		_ = saved.Undo()
		return nil, err
	}
	if ferr := saved.Finish(res); ferr != nil {
		res.Warnings = append(res.Warnings, "saving the run result: "+ferr.Error())
	}
	if eerr := saved.Err(); eerr != nil {
		res.Warnings = append(res.Warnings, "writing the event log: "+eerr.Error())
	}
	_ = saved.Close()
	return res, nil
}

// fanout sends events to every sink; sinks are added before a run starts.
type fanout struct{ sinks []event.Sink }

func (o *fanout) add(s event.Sink) { o.sinks = append(o.sinks, s) }

// Emit implements event.Sink.
func (o *fanout) Emit(e event.Event) {
	for _, s := range o.sinks {
		s.Emit(e)
	}
}

// printResult writes the result and returns the status as an exit code.
func printResult(w, errOut io.Writer, format string, res *run.Result) error {
	if format != "json" {
		for _, warning := range res.Warnings {
			fmt.Fprintln(errOut, "chainrun: warning: "+warning)
		}
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else if res.Status == run.Paused {
		if err := printPause(w, res); err != nil {
			return err
		}
	} else if res.Status == run.Succeeded && res.Output != nil {
		text, ok := res.Output.(string)
		if !ok {
			b, err := json.MarshalIndent(res.Output, "", "  ")
			if err != nil {
				return err
			}
			text = string(b)
		}
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
	}
	switch res.Status {
	case run.Succeeded:
		return nil
	case run.Interrupted:
		return &exitStatus{code: exitInterrupted, msg: fmt.Sprintf("%s %s (run %s); resume it with: chainrun resume %s", res.Name, res.Error, res.RunID, res.RunID)}
	case run.Paused:
		return &exitStatus{code: exitPaused}
	}
	msg := fmt.Sprintf("%s failed (run %s): %s\nresume it with: chainrun resume %s", res.Name, res.RunID, res.Error, res.RunID)
	if res.WorkflowResult != nil {
		msg = fmt.Sprintf("%s failed at state %s (run %s): %s", res.Name, res.State, res.RunID, res.Error)
		for _, l := range res.Links {
			msg += fmt.Sprintf("\n%s: %s", l.Title, resumeCommand(res.RunID, l))
		}
		if len(res.Links) == 0 {
			msg += "\nresume it with: chainrun resume " + res.RunID
		}
	}
	for _, s := range res.Steps {
		if s.Status == run.StepFailed && s.Stderr != "" && format == "text" {
			// indented: a line of the step's output is never read as a
			// CI command (GitHub acts on lines that begin with ::)
			msg += "\n--- stderr of " + s.ID + " (last lines) ---\n  " + strings.ReplaceAll(s.Stderr, "\n", "\n  ")
		}
	}
	return &exitStatus{code: exitFailed, msg: msg}
}

// resumeCommand is the command that takes a link of a run: with --rerun
// when the step behind it is not idempotent.
func resumeCommand(runID string, l run.Link) string {
	cmd := "chainrun resume " + runID + " --take " + l.Transition
	if l.Rerun {
		cmd += " --rerun " + l.Transition
	}
	return cmd
}

// printPause shows a run paused at a decision point: what is to be
// decided, the choices and the command that takes each.
func printPause(w io.Writer, res *run.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s paused at %s (run %s)\n", res.Name, res.State, res.RunID)
	if g := res.Guidance; g != nil {
		if g.Goal != "" {
			fmt.Fprintf(&b, "\ngoal: %s\n", g.Goal)
		}
		if g.Instructions != "" {
			fmt.Fprintf(&b, "\n%s\n", g.Instructions)
		}
	}
	if res.Deadline != "" {
		fmt.Fprintf(&b, "\ndeadline: %s (then the next resume takes its on_timeout transition)\n", res.Deadline)
	}
	b.WriteString("\nchoose one:\n")
	width := 0
	for _, l := range res.Links {
		width = max(width, len(l.Transition))
	}
	for _, l := range res.Links {
		fmt.Fprintf(&b, "  %-*s  # %s\n", width+len("chainrun resume  --take ")+len(res.RunID), resumeCommand(res.RunID, l), l.Title)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func printPlan(w io.Writer, format string, c *chain.Chain, plan []run.PlannedStep) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"name": c.Name, "dry_run": true, "steps": plan})
	}
	fmt.Fprintf(w, "dry run of %s: nothing is executed\n", c.Name)
	wave := 0
	for _, p := range plan {
		if p.Wave != wave {
			wave = p.Wave
		}
		deps := ""
		if len(p.DependsOn) > 0 {
			deps = " after " + strings.Join(p.DependsOn, ", ")
		}
		switch {
		case p.Transition != "":
			fmt.Fprintf(w, "\n%s → %s by %s (%s)\n", p.State, p.Target, p.Transition, p.Kind)
		case p.State != "":
			fmt.Fprintf(w, "\n%s task (%s)\n", p.State, p.Kind)
		default:
			fmt.Fprintf(w, "\n%s (%s, wave %d%s)\n", p.ID, p.Kind, p.Wave, deps)
		}
		if p.Condition != "" {
			fmt.Fprintf(w, "  if: %s\n", p.Condition)
		}
		if p.Cwd != "" {
			fmt.Fprintf(w, "  cwd: %s\n", p.Cwd)
		}
		if p.Model != "" {
			models := p.Model
			if len(p.FallbackModels) > 0 {
				models += " (then " + strings.Join(p.FallbackModels, ", ") + ")"
			}
			fmt.Fprintf(w, "  model: %s\n", models)
		}
		if p.System != "" {
			fmt.Fprintf(w, "  system: %s\n", p.System)
		}
		for _, line := range strings.Split(p.Action, "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	return nil
}
