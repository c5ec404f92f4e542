package cmd

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/inputs"
	"github.com/chainrun/chainrun/pkg/run"
)

type resumeOptions struct {
	f       *factory
	runID   string
	inputs  []string
	rerun   []string
	reload  bool
	verbose bool
	quiet   bool
	take    string
	shaping
}

func newResumeCmd(f *factory) *cobra.Command {
	opts := &resumeOptions{f: f}
	cmd := &cobra.Command{
		Use:   "resume RUN_ID",
		Short: "Continue a paused, failed, interrupted or crashed run where it stopped",
		Long: `Continue a saved run. Steps that finished are not run again; failed and
unfinished ones run. The chain is the snapshot taken at launch, so editing
the file never changes a run in flight; --reload takes the current file
instead (to fix the chain itself), refusing when its steps differ.

Secret inputs are never saved: give them again with --input. A step marked
idempotent: false that started and did not finish is not run again until
you confirm with --rerun STEP.

A workflow paused at a decision point continues with --take TRANSITION
(one of the links it printed); a failed transition runs again.

The run-shaping flags the run was started with (--model, --max-tokens,
--agent-model, --max-parallel, --max-parallel-llm, --no-cache, --grant)
apply again; give one to change it for the rest of the run.`,
		Args:              exactArgs(1, "one run id"),
		ValidArgsFunction: completeRunIDs(f),
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
	opts.define(fl)
	_ = cmd.RegisterFlagCompletionFunc("take", completeTake(f))
	fl.BoolVarP(&opts.verbose, "verbose", "v", false, "stream each step's output to stderr")
	fl.BoolVarP(&opts.quiet, "quiet", "q", false, "print no progress")
	return cmd
}

func runResume(cmd *cobra.Command, opts *resumeOptions) error {
	f := opts.f
	bindShaping(f, cmd.Flags())
	format, err := f.format()
	if err != nil {
		return err
	}
	given, err := inputs.Parse(opts.inputs, "")
	if err != nil {
		return err
	}
	st, err := f.stateStore()
	if err != nil {
		return err
	}
	session, saved, err := st.Continue(opts.runID)
	if err != nil {
		return err
	}
	defer session.Close() // when it is not driven

	if saved.Record.Status == run.Succeeded && saved.Result != nil && opts.take != "" {
		return usagef("--take %s: run %s already succeeded; there is no decision to make", opts.take, opts.runID)
	}
	if saved.Record.Status == run.Succeeded && saved.Result != nil {
		fmt.Fprintf(f.io.ErrOut, "run %s already succeeded; nothing to resume\n", opts.runID)
		return printResult(f.io.Out, f.io.ErrOut, format, saved.Result)
	}
	if d := saved.Record.Dir; d != "" {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return usagef("run %s runs in the directory it started in, %s, which is no longer there: restore it to resume", opts.runID, d)
		}
	}
	chainOpts, err := f.chainOptions()
	if err != nil {
		return err
	}
	// a run launched with strict_variables: false stays lenient
	lenient := saved.Record.LenientVariables || chainOpts.LenientVariables
	c, err := resumedChain(f, saved.Record.ChainFile, saved.Record.Name, saved.Snapshot, opts.reload, lenient)
	if err != nil {
		return err
	}
	inputs := map[string]string{}
	for k, val := range saved.Record.Inputs {
		inputs[k] = val
	}
	for k, val := range given {
		if old, saved := inputs[k]; saved && old != val {
			// allowed (to mend a wrong input), but the finished steps
			// keep what they did with the old value: say so
			fmt.Fprintf(f.io.ErrOut, "chainrun: warning: input %s changes from %q to %q for the rest of run %s; steps that finished used %q\n", k, old, val, opts.runID, old)
		}
		inputs[k] = val
	}
	session.SetInputs(c, inputs)
	// the flags the run was launched with, unless given again
	if err := applyShaping(cmd.Flags(), saved.Record.Flags, opts.runID, f.io.ErrOut); err != nil {
		return err
	}
	if opts.maxTokens < 0 {
		return usagef("--max-tokens must be 0 (no cap) or more")
	}
	session.SetFlags(givenShaping(cmd.Flags()))
	rerun := map[string]bool{}
	for _, id := range opts.rerun {
		caller, _, nested := strings.Cut(id, "/")
		if c.Step(id) == nil && (!nested || c.Step(caller) == nil || c.Step(caller).Kind != chain.KindChain) {
			return usagef("--rerun %s: the chain has no such step (or transition)", id)
		}
		rerun[id] = true
	}
	engine, view, err := f.newEngine(engineOptions{verbose: opts.verbose, quiet: opts.quiet, noCache: opts.noCache, lenient: &lenient, flags: cmd.Flags()})
	if err != nil {
		return err
	}
	maskForGitHub(view, c, inputs)
	if opts.take != "" && c.Workflow == nil {
		return usagef("--take %s: run %s is a DAG chain; --take chooses a transition of a workflow", opts.take, opts.runID)
	}
	granted, err := grants(c, opts.grants)
	if err != nil {
		return err
	}
	human, ask := f.prompts(view)
	req := run.Request{RunID: opts.runID, Chain: c, Inputs: inputs, Resume: saved.Steps, Started: saved.Started, Rerun: rerun,
		History: saved.Transitions, Take: opts.take, AgentModel: opts.agentModel, MaxTokens: opts.maxTokens, Human: human, Grants: granted, Ask: ask}
	res, err := session.Drive(cmd.Context(), engine, req)
	if err != nil {
		return err
	}
	reportGitHub(view, c, res)
	return printResult(f.io.Out, f.io.ErrOut, format, res)
}

// resumedChain is the chain a resume runs: the snapshot, or with --reload
// the file as it is now, which must have the same steps.
func resumedChain(f *factory, file, name string, snapshot []byte, reload, lenient bool) (*chain.Chain, error) {
	// with --reload the snapshot only lends its shape: it is read
	// leniently, so a chain that no longer validates can be replaced
	snapFile, err := chain.Parse(file+" (snapshot)", snapshot, chain.Options{LenientVariables: lenient || reload})
	if err != nil {
		return nil, err
	}
	snap := pick(snapFile, name)
	if snap == nil {
		return nil, usagef("the run's snapshot of %s holds no chain named %s", file, name)
	}
	if !reload {
		snap.File = file
		return snap, nil
	}
	opts, err := f.chainOptions()
	if err != nil {
		return nil, err
	}
	opts.LenientVariables = opts.LenientVariables || lenient
	curFile, err := chain.LoadFile(file, opts)
	if err != nil {
		return nil, err
	}
	cur := pick(curFile, name)
	if cur == nil {
		return nil, usagef("--reload: %s no longer holds a chain named %s; start a new run instead", file, name)
	}
	if a, b := shapeOf(snap), shapeOf(cur); a != b {
		what := "steps"
		if snap.Workflow != nil {
			what = "states and transitions"
		}
		return nil, usagef("--reload: %s no longer has the run's %s (run: %s; file: %s); start a new run instead", file, what, a, b)
	}
	return cur, nil
}

// pick is the file's chain of that name; an empty name (a run saved
// before names were recorded) means its first.
func pick(l *chain.Loaded, name string) *chain.Chain {
	if name == "" {
		return l.Chain
	}
	return l.Named(name)
}

// shapeOf is what a reloaded chain must keep for a run's saved progress to
// mean the same: its step ids, or a workflow's states and transitions.
func shapeOf(c *chain.Chain) string {
	var ids []string
	if w := c.Workflow; w != nil {
		for _, s := range w.States {
			ids = append(ids, s.Name)
			for _, t := range s.Transitions {
				ids = append(ids, s.Name+"."+t.Name+"→"+t.Target)
			}
		}
	} else {
		for _, s := range c.Steps {
			ids = append(ids, s.ID)
		}
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}
