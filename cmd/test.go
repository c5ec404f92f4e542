package cmd

import (
	"errors"
	"os"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chaintest"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/project"
	"github.com/chainrun/chainrun/pkg/run"
)

type testOptions struct {
	f                   *factory
	record, filter      string
	check, update, live bool
	parallel, repeat    int
	baseline, saveBase  string
	failOn              string
}

func newTestCmd(f *factory) *cobra.Command {
	opts := &testOptions{f: f}
	cmd := &cobra.Command{
		Use:   "test [FILE|DIR|CHAIN|PATTERN]...",
		Short: "Run chain tests (*.test.yaml): hermetic, with recorded model answers",
		Long: `Run the cases of chain test files: each runs its chain with inputs and
mocks (step results, scripted model answers, decisions, env, time) and
checks what it must show (status, output, steps, path, budgets).

Without arguments every *.test.yaml under the chains directory and tests/
runs; an argument is a test file, a directory, or the name of a chain
(or a pattern of names: 'deploy*') whose tests run. Model answers come
from NAME.cassette.yaml beside the test file, recorded at the provider
level: --record=none (the default)
fails a case whose request has no recording and shows what changed;
--record=missing asks the live model for those and records them;
--record=all records every answer anew. A case reaches no network unless
--live: http, mcp, webhook and browser steps must be mocked.

--repeat N runs each case N times (replaying the cassette; with --live
the model calls go to the providers, fresh each time, recorded nowhere).
--save-baseline FILE keeps the verdicts; --baseline FILE compares with
them and, by default, fails only on a regression (--fail-on).

-o text (default), json, junit or html; exit 1 when any case fails (or,
with --check, any recording is unused), 2 when a test file is bad.`,
		Example: `  chainrun test
  chainrun test chains/review.test.yaml --run 'long diff'
  chainrun test review --record=missing
  chainrun test -o junit > chain-tests.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTest(cmd, opts, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.record, "record", "none", "model answers with no recording: none (fail), missing (record them), all (record every answer anew)")
	fl.BoolVar(&opts.check, "check", false, "fail when the cassettes hold recordings no case asks for")
	fl.BoolVar(&opts.update, "update", false, "rewrite golden files with what the runs produced")
	fl.BoolVar(&opts.live, "live", false, "let http, mcp, webhook and browser steps reach the network (with --repeat, model calls go to the providers too)")
	fl.StringVar(&opts.filter, "run", "", "run only the cases whose name matches this regular expression")
	fl.IntVarP(&opts.parallel, "parallel", "p", 0, "cases run at once (default: CPUs, at least 4)")
	fl.IntVar(&opts.repeat, "repeat", 1, "run each case N times; a case passes when its pass_rate of them pass")
	fl.StringVar(&opts.saveBase, "save-baseline", "", "write the run's verdicts to FILE, for --baseline")
	fl.StringVar(&opts.baseline, "baseline", "", "compare with the verdicts saved in FILE: newly failing, newly passing, score and cost changes")
	fl.StringVar(&opts.failOn, "fail-on", "", "exit 1 on: regression (against --baseline; its default) or failure (any failed case)")
	_ = cmd.RegisterFlagCompletionFunc("record", fixed("none\tfail on a request with no recording", "missing\trecord what is missing", "all\trecord every answer anew"))
	return cmd
}

func runTest(cmd *cobra.Command, opts *testOptions, args []string) error {
	f := opts.f
	v, err := f.config()
	if err != nil {
		return err
	}
	format := v.GetString(keyOutput)
	switch format {
	case "", "text", "json", "junit", "html":
	default:
		return usagef("--output %q: use text, json, junit or html", format)
	}
	mode, err := cassette.ParseMode(opts.record)
	if err != nil {
		return usagef("--record: %v", err)
	}
	vars, err := project.DotenvVars(v)
	if err != nil {
		return err
	}
	// credentials of the environment and of the config's dotenv files (a
	// run's own dotenv files are added as the run reads them)
	secrets := append(chaintest.EnvSecrets(os.Environ()), chaintest.VarSecrets("config dotenv variable", vars)...)
	r := &chaintest.Runner{Mode: mode, Live: opts.live, Update: opts.update, Check: opts.check, Parallel: opts.parallel,
		Secrets: secrets, Repeat: opts.repeat, LiveModels: opts.live && cmd.Flags().Changed("repeat"), Config: v.Get("test"), ConfigFile: v.File()}
	baseline, failOn, err := chaintest.Baselines(opts.baseline, opts.failOn)
	if err = errors.Join(err, chaintest.CheckRepeat(opts.repeat, mode, r.LiveModels)); err != nil {
		return usagef("%v", err)
	}
	if opts.filter != "" {
		if r.Filter, err = regexp.Compile(opts.filter); err != nil {
			return usagef("--run %q: %v", opts.filter, err)
		}
	}
	if opts.parallel < 0 {
		return usagef("--parallel %d: want 1 or more", opts.parallel)
	}
	dir, err := f.chainsDir()
	if err != nil {
		return err
	}
	files, err := chaintest.Discover(args, []string{dir, "tests"})
	if err != nil {
		return usagef("%v", err)
	}
	if r.Models, err = f.registry(); err != nil {
		return err
	}
	if r.Prices, err = f.prices(); err != nil {
		return err
	}
	base, err := f.testEngine()
	if err != nil {
		return err
	}
	r.Engine = func(extra ...run.Option) run.Engine { return run.New(append(base, extra...)...) }
	r.Resolve = func(ref string, _ bool) (*chain.Chain, error) {
		l, err := f.resolveChain(ref)
		if err != nil {
			return nil, err
		}
		return l.Chain, nil
	}
	rep, err := r.Run(cmd.Context(), files)
	if err != nil {
		return usagef("%v", err)
	}
	if err := rep.Finish(f.io.Out, format, verbose(cmd), baseline, opts.baseline); err != nil {
		return err
	}
	if opts.saveBase != "" {
		if err := rep.SaveBaseline(opts.saveBase); err != nil {
			return usagef("%v", err)
		}
	}
	if cmd.Context().Err() != nil {
		return &exitStatus{code: exitInterrupted, msg: "interrupted: the cases still running were stopped"}
	}
	if rep.Failing(failOn) {
		return &exitStatus{code: exitFailed}
	}
	return nil
}

// testEngine is the engine options every case shares: the project's
// chains, workflows and scripts, its default model and principal.
func (f *factory) testEngine() ([]run.Option, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	dir, err := f.getwd()
	if err != nil {
		return nil, err
	}
	principal, err := project.ReadPrincipal("", v.Get(keyPrincipal), os.Getenv)
	if err != nil {
		return nil, err
	}
	called := f.called()
	return []run.Option{run.WithDir(dir), run.WithLenientVariables(!v.GetBool(keyStrictVariables)),
		run.WithChains(called.Chain), run.WithWorkflows(called.Workflow), run.WithScripts(called.Script),
		run.WithDefaultModel(f.defaultModel()), run.WithPrincipal((*chain.Principal)(principal)), run.WithDotenv(project.Dotenv(v)...),
		run.WithLoader(run.Loader{NamesBelow: catalog.NamesBelow, Parse: load.Parse})}, nil
}
