package cmd

import (
	"context"
	"io"
	"math"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/inputs"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
	"github.com/spf13/cobra"
)

type runOptions struct {
	detach    bool
	f         *factory
	chain     string
	inputs    []string
	inputFile string
	dryRun    bool
	quiet     bool
	shaping
}

func newRunCmd(f *factory) *cobra.Command {
	opts := &runOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run CHAIN",
		Short: "Run a chain by name (or a chain file by path)",
		Long: `Run a chain. CHAIN is the name of a chain in the chains directory, or the
path of a chain file. Inputs come from --input key=value (key=@file reads
a regular file of at most 8 MiB; key=@@text is the literal text @text) and
--input-file (a YAML or JSON mapping); --input wins.

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
	fl.StringArrayVarP(&opts.inputs, "input", "i", nil, "input value key=value, key=@file (a regular file, at most 8 MiB) or key=@@text for a literal @text (repeatable)")
	fl.StringVar(&opts.inputFile, "input-file", "", "YAML or JSON file of input values")
	fl.BoolVar(&opts.dryRun, "dry-run", false, "print each resolved step and run nothing")
	fl.BoolVar(&opts.detach, "detach", false, "start the run on the durable engine, print its id and return (--engine temporal)")
	hideDurable(fl, "detach")
	defineEngine(f, fl)
	defineOtel(fl)
	fl.BoolVarP(&opts.quiet, "quiet", "q", false, "print no progress, only the result and errors")
	opts.define(fl)
	_ = cmd.RegisterFlagCompletionFunc("input", completeInputKeys(f))
	_ = cmd.RegisterFlagCompletionFunc("grant", completeGrant(f))
	return cmd
}

func runRun(cmd *cobra.Command, opts *runOptions) error {
	f := opts.f
	bindShaping(f, cmd.Flags())
	bindEngine(f, cmd.Flags())
	format, err := f.format()
	if err != nil {
		return err
	}
	inputs, err := inputs.Parse(opts.inputs, opts.inputFile)
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
	engine, view, err := f.newEngine(engineOptions{verbose: verbose(cmd), quiet: opts.quiet, noCache: opts.noCache, keepGoing: opts.keepGoing, flags: cmd.Flags()})
	if err != nil {
		return err
	}
	view.github.MaskSecrets(loaded.Chain, inputs) // before anything is printed
	if !opts.quiet {
		text.RunWarnings(f.io.ErrOut, loaded)
	}
	if opts.maxTokens < 0 {
		return usagef("--max-tokens must be 0 (no cap) or more")
	}
	if !(opts.maxCost >= 0 && opts.maxCost < math.Inf(1)) {
		return usagef("--max-cost %v: want 0 (no cap) or more US dollars", opts.maxCost)
	}
	granted, err := given.Grants(loaded.Chain, opts.grants)
	if err != nil {
		return err
	}
	human, ask := f.prompts(view)
	req := run.Request{Chain: loaded.Chain, Inputs: inputs, MaxTokens: opts.maxTokens, MaxCostUSD: opts.maxCost,
		AgentModel: opts.agentModel, Human: human, Grants: granted, Ask: ask, Trace: view.trace.Context()}
	if opts.dryRun {
		// a dry run refuses what validate refuses: a called chain that is
		// missing, an input it lacks, a call cycle
		if err := f.checkCalls("", loaded, nil); err != nil {
			return err
		}
		plan, err := engine.Plan(req)
		if err != nil {
			return err
		}
		return printPlan(f.io.Out, format, loaded.Chain, plan)
	}
	if d, err := f.durable(cmd.Context()); d != nil || err != nil {
		if err == nil {
			err = run.CheckInputs(req)
		}
		if err != nil {
			return err
		}
		return runDurable(cmd.Context(), f, d, req, format, view, opts.detach, cmd.Flags())
	}
	if opts.detach {
		return usagef("--detach starts a run on a durable engine (--engine temporal); a local run lives in this process")
	}
	res, err := runSaved(cmd.Context(), f, engine, req, inputs, givenShaping(cmd.Flags()))
	if err != nil {
		return err
	}
	return f.reportRun(view, format, res, loaded.Chain)
}

// runSaved runs the chain with every step saved in the state directory,
// so the run can be resumed. A state directory that cannot be written is
// a warning of the result (stderr in text, "warnings" in JSON): the run
// goes on unsaved, and its result is still printed.
func runSaved(ctx context.Context, f *factory, engine run.Engine, req run.Request, inputs map[string]string, flags map[string][]string) (*record.Result, error) {
	st, err := f.stateStore()
	if err != nil {
		return nil, err
	}
	opts, err := f.chainOptions()
	if err != nil {
		return nil, err
	}
	// the run's directory is recorded: a resume runs the rest there
	if req.Dir, err = f.getwd(); err != nil {
		return nil, err
	}
	session, serr := st.Start(req.Chain, inputs, opts.LenientVariables)
	if serr != nil {
		// a warning of the result, so that -o json carries it too
		res, err := engine.Run(ctx, req)
		if res != nil {
			res.Warnings = append(res.Warnings, store.NotSaved(serr))
		}
		return res, err
	}
	session.SetFlags(flags)
	return session.Drive(ctx, engine, req)
}

// verbose reports -v/--verbose, a flag of every command.
func verbose(cmd *cobra.Command) bool {
	v, _ := cmd.Flags().GetBool("verbose")
	return v
}

// printResult writes the result (said: the progress shown said how the
// run ended); its status decides the exit code (and pass_exit_code), and
// the hint after a failure reads c's file (nil: none).
func (f *factory) printResult(format string, res *record.Result, said bool, c *chain.Chain) error {
	var err error
	if format == "json" {
		err = render.PrintJSON(f.io.Out, res)
	} else {
		err = text.Result(f.io.Out, f.io.ErrOut, res, said)
	}
	if err != nil && !interrupt.PipeClosed(err) {
		return err
	}
	return resultExit(res, format, c, f.v.GetBool(keyPassExitCode))
}

// reportRun shows how a run this process drove ended: in GitHub Actions
// its report and its step outputs (with the exit code printResult
// returns), then its result.
func (f *factory) reportRun(view *runView, format string, res *record.Result, c *chain.Chain) error {
	view.github.Report(c, res)
	view.github.Outputs(res, exitCode(resultExit(res, format, c, f.v.GetBool(keyPassExitCode)), true))
	return f.printResult(format, res, view.said, c)
}

// printPlan writes a dry run's plan.
func printPlan(w io.Writer, format string, c *chain.Chain, plan []record.PlannedStep) error {
	if format == "json" {
		return render.PrintJSON(w, map[string]any{"name": c.Name, "dry_run": true, "steps": plan})
	}
	return text.Plan(w, c.Name, plan)
}
