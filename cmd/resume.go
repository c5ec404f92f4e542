package cmd

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/chainrun/chainrun/pkg/inputs"
	"github.com/chainrun/chainrun/pkg/render/github"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/resume"
	"github.com/spf13/cobra"
)

type resumeOptions struct {
	f      *factory
	runID  string
	inputs []string
	rerun  []string
	reload bool
	quiet  bool
	take   string
	acks   []string
	args   []string
	argsF  string
	shaping
}

func newResumeCmd(f *factory) *cobra.Command {
	opts := &resumeOptions{f: f}
	cmd := &cobra.Command{
		Use:   "resume RUN_ID|last",
		Short: "Continue a paused, failed, interrupted or crashed run where it stopped",
		Long: `Continue a saved run. RUN_ID is its id, "last" (the newest run of this
project, or of every directory with --all), or any part of an id that
only one run's id begins or ends with (the random suffix). Steps that finished are not run again; failed and unfinished
ones run. The chain is the snapshot taken at launch, so editing
the file never changes a run in flight; --reload takes the current file
instead (to fix the chain itself), refusing when its steps differ.

Secret inputs are never saved: give them again with --input. A step marked
idempotent: false that started and did not finish is not run again until
you confirm with --rerun STEP.

A workflow paused at a decision point continues with --take TRANSITION
(one of the links it printed); a failed transition runs again. --ack
SUBJECT acknowledges the script or skill body (printed at the pause) that
a transition's guards wait for. A DAG
chain paused at a gate step continues with --take approve or --take
reject (GATE:approve when several gates wait).

The run-shaping flags the run was started with (--model, --max-tokens,
--agent-model, --max-parallel, --max-parallel-llm, --no-cache, --grant,
--keep-going) apply again; give one to change it for the rest of the run.`,
		Example: `  chainrun resume last --take deploy
  chainrun resume 46d299 --input token=$TOKEN`,
		Args:              exactArgs(1, "one run id"),
		ValidArgsFunction: completeRunIDs(f, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.runID = args[0]
			return runResume(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&opts.inputs, "input", "i", nil, "input value key=value (secret inputs must be given again)")
	fl.StringArrayVar(&opts.rerun, "rerun", nil, "run this non-idempotent step again although it may have started")
	fl.BoolVar(&opts.reload, "reload", false, "use the chain file as it is now instead of the snapshot")
	fl.StringVar(&opts.take, "take", "", "take this transition at the decision point the run paused at")
	fl.StringArrayVar(&opts.acks, "ack", nil, "acknowledge having read this script's or skill's body (its acknowledgment guards wait for it)")
	fl.StringArrayVar(&opts.args, "arg", nil, "an argument of the --take decision, name=value (checked against its inputSchema)")
	fl.StringVar(&opts.argsF, "args-file", "", "the --take decision's arguments as a JSON object")
	opts.define(fl)
	_ = cmd.RegisterFlagCompletionFunc("take", completeSaved(f, text.TakeChoices))
	_ = cmd.RegisterFlagCompletionFunc("rerun", completeSaved(f, text.RerunChoices))
	_ = cmd.RegisterFlagCompletionFunc("grant", completeGrant(f))
	fl.BoolVarP(&opts.quiet, "quiet", "q", false, "print no progress")
	defineAllRuns(f, fl)
	defineEngine(f, fl)
	defineOtel(fl)
	return cmd
}

func runResume(cmd *cobra.Command, opts *resumeOptions) error {
	f := opts.f
	bindShaping(f, cmd.Flags())
	bindEngine(f, cmd.Flags())
	format, err := f.format()
	if err != nil {
		return err
	}
	fromFlags, err := inputs.Parse(opts.inputs, "")
	if err != nil {
		return err
	}
	args, err := inputs.ParseArgs(opts.args, opts.argsF)
	if err != nil {
		return err
	}
	if d, err := f.durable(cmd.Context()); d != nil || err != nil {
		if err != nil {
			return err
		}
		return resumeDurable(cmd, f, d, opts, format)
	}
	st, id, err := f.runID(opts.runID)
	if err != nil {
		return err
	}
	session, saved, err := st.Continue(id)
	if err != nil {
		return err
	}
	defer session.Close() // when it is not driven
	if id != opts.runID && !opts.quiet {
		fmt.Fprintf(f.io.ErrOut, "chainrun: %s is run %s (%s, %s)\n", opts.runID, id, saved.Record.Name, saved.Record.Status)
	}
	opts.runID = id

	if saved.Record.Status == record.Succeeded && saved.Result != nil && opts.take != "" {
		return usagef("--take %s: run %s already succeeded; there is no decision to make", opts.take, opts.runID)
	}
	if saved.Record.Status == record.Succeeded && saved.Result != nil && len(opts.rerun) > 0 {
		return usagef("--rerun %s: run %s already succeeded; a resume runs nothing again (start a new run)", strings.Join(opts.rerun, ", "), opts.runID)
	}
	if saved.Record.Status == record.Succeeded && saved.Result != nil {
		fmt.Fprintf(f.io.ErrOut, "run %s already succeeded; nothing to resume\n", opts.runID)
		github.New(os.Getenv, "", f.io.ErrOut, github.Options{}).Outputs(saved.Result, exitOK) // a job run again reads them too
		return f.printResult(format, saved.Result, false, nil)
	}
	if err := saved.CheckDir(); err != nil {
		return err
	}
	if err := saved.CheckSecrets(fromFlags); err != nil {
		return err
	}
	chainOpts, err := f.chainOptions()
	if err != nil {
		return err
	}
	// a run launched with strict_variables: false stays lenient
	lenient := saved.Record.LenientVariables || chainOpts.LenientVariables
	c, err := saved.Chain(chainOpts, opts.reload)
	if err != nil {
		return err
	}
	inputs := saved.Inputs(fromFlags, func(w string) { fmt.Fprintln(f.io.ErrOut, "chainrun: warning: "+w) })
	session.SetInputs(c, inputs)
	// the flags the run was launched with, unless given again
	if err := applyShaping(cmd.Flags(), saved.Record.Flags, opts.runID, f.io.ErrOut); err != nil {
		return err
	}
	if opts.maxTokens < 0 {
		return usagef("--max-tokens must be 0 (no cap) or more")
	}
	if !(opts.maxCost >= 0 && opts.maxCost < math.Inf(1)) {
		return usagef("--max-cost %v: want 0 (no cap) or more US dollars", opts.maxCost)
	}
	session.SetFlags(givenShaping(cmd.Flags()))
	rerun, err := resume.RerunSet(c, opts.rerun)
	if err != nil {
		return err
	}
	engine, view, err := f.newEngine(engineOptions{verbose: verbose(cmd), quiet: opts.quiet, noCache: opts.noCache, keepGoing: opts.keepGoing, lenient: &lenient, flags: cmd.Flags(), earlierTraces: saved.Traces})
	if err != nil {
		return err
	}
	view.github.MaskSecrets(c, inputs)
	if opts.take != "" && c.Workflow == nil && !c.HasGate() {
		return usagef("--take %s: run %s is a DAG chain without a gate; --take chooses a transition of a workflow, or decides a gate", opts.take, opts.runID)
	}
	granted, err := given.Grants(c, opts.grants)
	if err != nil {
		return err
	}
	human, ask := f.prompts(view)
	req := run.Request{RunID: opts.runID, Chain: c, Inputs: inputs, Resume: saved.Steps, Started: saved.Started, Rerun: rerun,
		History: saved.Transitions, Take: opts.take, Args: args, Acks: opts.acks, AgentModel: opts.agentModel, MaxTokens: opts.maxTokens, MaxCostUSD: opts.maxCost, Human: human, Grants: granted, Ask: ask, Trace: view.trace.Context()}
	res, err := session.Drive(cmd.Context(), engine, req)
	if err != nil {
		return err
	}
	return f.reportRun(view, format, res, c)
}
