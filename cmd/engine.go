package cmd

import (
	"os"

	"github.com/spf13/pflag"

	_ "github.com/chainrun/chainrun/pkg/builtin" // every step kind
	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dotenv"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/project"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/web"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// engineOptions are what run and resume choose about an engine.
type engineOptions struct {
	verbose, quiet, noCache, keepGoing bool
	// lenient, when set, overrides config strict_variables (a resume
	// keeps the run's own).
	lenient *bool
	// flags are the command's flags, to tell a flag given from one left
	// at its default (nil: none given).
	flags *pflag.FlagSet
	// earlierTraces are the traceparents of the run's earlier attempts
	// (a resume), which its trace links to.
	earlierTraces []string
	// served: a chainrun mcp run, traced under the client's parentTrace.
	served      bool
	parentTrace tracectx.Context
}

// engineSetup is what config and flags decide about an engine.
type engineSetup struct {
	parallel     int
	dir          string
	events       event.Sink
	logLines     bool
	lenient      bool
	keepGoing    bool
	chains       run.ChainResolver
	workflows    run.WorkflowResolver
	scripts      run.ScriptResolver
	models       run.Models
	defaultModel string
	streaming    bool
	answers      cache.Cache
	cacheReads   bool
	principal    *chain.Principal
	search       web.Provider
	dotenv       []dotenv.File
	prices       *llm.Prices
	capture      bool
}

// localEngine is the engine of this process.
func localEngine(s engineSetup) run.Engine {
	return run.New(
		run.WithParallel(s.parallel),
		run.WithKeepGoing(s.keepGoing),
		run.WithDir(s.dir),
		run.WithEvents(s.events),
		run.WithLogLines(s.logLines),
		run.WithLenientVariables(s.lenient),
		run.WithChains(s.chains),
		run.WithWorkflows(s.workflows),
		run.WithScripts(s.scripts),
		run.WithModels(s.models),
		run.WithDefaultModel(s.defaultModel),
		run.WithStreaming(s.streaming),
		run.WithCache(s.answers, s.cacheReads),
		run.WithPrincipal(s.principal),
		run.WithSearch(s.search),
		run.WithDotenv(s.dotenv...),
		run.WithPrices(s.prices),
		run.WithCaptureContent(s.capture),
		run.WithLoader(run.Loader{NamesBelow: catalog.NamesBelow, Parse: load.Parse}),
	)
}

// newEngine builds the engine from config and flags, shown on stderr by
// the run's view.
func (f *factory) newEngine(o engineOptions) (run.Engine, *runView, error) {
	v, err := f.config()
	if err != nil {
		return nil, nil, err
	}
	if o.verbose && o.quiet {
		return nil, nil, usagef("--verbose and --quiet cannot be used together")
	}
	// CHAINRUN_MAX_PARALLEL and the config file were checked when
	// config loaded, naming themselves; what is left is the flag
	parallel := v.GetInt(keyMaxParallel)
	if parallel < 0 || (o.flags != nil && o.flags.Changed("max-parallel") && parallel < 1) {
		return nil, nil, usagef("--max-parallel %d: want 1 or more (leave it out for the default: CPUs, at least 4)", parallel)
	}
	dir, err := f.getwd()
	if err != nil {
		return nil, nil, err
	}
	models, err := f.registry()
	if err != nil {
		return nil, nil, err
	}
	answers, err := f.cacheStore()
	if err != nil {
		return nil, nil, err
	}
	prices, err := f.prices()
	if err != nil {
		return nil, nil, err
	}
	principal, err := project.ReadPrincipal("", v.Get(keyPrincipal), os.Getenv)
	if err != nil {
		return nil, nil, err
	}
	if o.keepGoing && v.GetString(keyEngine) == "temporal" { // its runs do not carry the flag
		return nil, nil, usagef("--keep-going: a durable engine's runs do not take it; write keep_going: true in the chain")
	}
	lenient := !v.GetBool(keyStrictVariables)
	if o.lenient != nil {
		lenient = *o.lenient
	}
	view := f.newView(dir, o)
	if view.trace, err = f.traceRun(o); err != nil {
		return nil, nil, err
	}
	if view.trace != nil {
		view.sinks = append(view.sinks, view.trace)
	}
	called := f.called()
	engine := f.engine(engineSetup{parallel: parallel, keepGoing: o.keepGoing, dir: dir, events: view.sinks, logLines: o.verbose, lenient: lenient,
		chains: called.Chain, workflows: called.Workflow, scripts: called.Script, models: models, defaultModel: f.defaultModel(),
		streaming: f.io.IsStderrTTY() && !o.quiet, answers: answers, cacheReads: !o.noCache, principal: (*chain.Principal)(principal),
		search: web.Provider{URL: v.GetString(keySearchURL), KeyHeader: v.GetString(keySearchKeyHeader), Key: os.Getenv("CHAINRUN_SEARCH_API_KEY")}, dotenv: project.Dotenv(v),
		prices: prices, capture: view.trace.CaptureContent()})
	return engine, view, nil
}

// format is the --output format (text or json) of this command.
func (f *factory) format() (string, error) {
	v, err := f.config()
	if err != nil {
		return "", err
	}
	return outputFormat(v)
}
