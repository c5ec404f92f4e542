package cmd

import (
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
)

// engineOptions are what run and resume choose about an engine.
type engineOptions struct {
	verbose, quiet, noCache bool
	// lenient, when set, overrides config strict_variables (a resume
	// keeps the run's own).
	lenient *bool
}

// newEngine builds the local engine from config and flags, with progress
// lines on stderr; more event sinks (a saved run) join the fan-out.
func (f *factory) newEngine(o engineOptions) (*run.Local, *fanout, error) {
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
	prog := f.progressSink(o)
	if live, ok := prog.(*liveProgress); ok {
		f.live = live // prompts hold it (see terminal.ask)
	}
	sinks := &fanout{sinks: []event.Sink{prog}}
	if gh := f.githubActions(dir, o); gh != nil {
		sinks.add(gh) // GITHUB_ACTIONS=true: grouped step logs, annotations, job summary
		if plain, ok := prog.(*progress); ok {
			plain.verbose = false // step lines go into their groups, once
		}
	}
	engine := run.New(
		run.WithParallel(parallel),
		run.WithDir(dir),
		run.WithEvents(sinks),
		run.WithLogLines(o.verbose),
		run.WithLenientVariables(lenient),
		run.WithChains(f.calledChain),
		run.WithModels(models),
		run.WithDefaultModel(f.defaultModel()),
		run.WithStreaming(f.io.IsStderrTTY() && !o.quiet),
		run.WithCache(answers, !o.noCache),
	)
	return engine, sinks, nil
}

// format is the --output format (text or json) of this command.
func (f *factory) format() (string, error) {
	v, err := f.config()
	if err != nil {
		return "", err
	}
	return outputFormat(v)
}
