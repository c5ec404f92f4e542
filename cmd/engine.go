package cmd

import (
	"github.com/chainrun/chainrun/pkg/run"
)

// engineOptions are what run and resume choose about an engine.
type engineOptions struct {
	verbose, quiet, noCache bool
	// lenient, when set, overrides config strict_variables (a resume
	// keeps the run's own).
	lenient *bool
}

// newEngine builds the local engine from config and flags, shown on
// stderr by the run's view; more event sinks (a saved run) join the
// view's before the run starts.
func (f *factory) newEngine(o engineOptions) (*run.Local, *runView, error) {
	v, err := f.config()
	if err != nil {
		return nil, nil, err
	}
	if o.verbose && o.quiet {
		return nil, nil, usagef("--verbose and --quiet cannot be used together")
	}
	parallel := v.GetInt(keyMaxParallel)
	if parallel < 0 {
		return nil, nil, usagef("--max-parallel must be 1 or more")
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
	lenient := !v.GetBool(keyStrictVariables)
	if o.lenient != nil {
		lenient = *o.lenient
	}
	view := f.newView(dir, o)
	engine := run.New(
		run.WithParallel(parallel),
		run.WithDir(dir),
		run.WithEvents(&view.sinks),
		run.WithLogLines(o.verbose),
		run.WithLenientVariables(lenient),
		run.WithChains(f.calledChain),
		run.WithModels(models),
		run.WithDefaultModel(f.defaultModel()),
		run.WithStreaming(f.io.IsStderrTTY() && !o.quiet),
		run.WithCache(answers, !o.noCache),
	)
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
