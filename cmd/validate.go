package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run"
)

type validateOptions struct {
	f      *factory
	chains []string
}

func newValidateCmd(f *factory) *cobra.Command {
	opts := &validateOptions{f: f}
	return &cobra.Command{
		Use:   "validate [CHAIN...]",
		Short: "Check chains without running them (all chains when none is named)",
		Long: `Check chain files: YAML, fields, step kinds, dependencies and cycles,
references to variables, conditions. Errors name file:line:col and exit 2;
warnings are printed and exit 0.`,
		ValidArgsFunction: completeChainNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.chains = args
			return runValidate(opts)
		},
	}
}

func runValidate(opts *validateOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	var results []text.Verdict
	if len(opts.chains) == 0 {
		cat, err := f.catalog()
		if err != nil {
			return err
		}
		for _, cf := range cat.Files {
			results = append(results, text.VerdictOf(cf.Path, cf.Name, cf.Loaded, f.checkCalls(cf.Path, cf.Loaded, cf.Err)))
		}
		if len(results) == 0 {
			return usagef("no chain files (*.yaml, *.yml) in %s", cat.Dir)
		}
	} else {
		for _, name := range opts.chains {
			l, err := f.resolveChain(name)
			file := name
			if l != nil {
				file = l.Chain.File
			}
			var nf *catalog.NotFoundError
			var de *catalog.DirError
			if errors.As(err, &nf) || errors.As(err, &de) {
				return err
			}
			results = append(results, text.VerdictsOf(file, name, l, f.checkCalls(file, l, err))...)
		}
	}
	if err := f.modelWarnings(results); err != nil {
		return err
	}
	bad, files := text.InvalidFiles(results)
	if format == "json" {
		if err := render.PrintJSON(f.io.Out, map[string]any{"valid": bad == 0, "chains": results}); err != nil {
			return err
		}
	} else {
		text.Verdicts(f.io.Out, f.io.ErrOut, results)
	}
	if bad > 0 {
		return &exitStatus{code: exitUsage, msg: fmt.Sprintf("%d of %d chain files are invalid", bad, files)}
	}
	return nil
}

// modelWarnings adds a warning for every agent step whose model cannot be
// used on this machine: a chain is valid without keys, but a run would
// stop before starting; and an error for every one whose requests its
// model's API refuses (a parameter it does not take). A config whose
// models cannot be read is the error.
func (f *factory) modelWarnings(results []text.Verdict) error {
	models, err := f.registry()
	if err != nil {
		return err
	}
	engine := f.engine(engineSetup{models: models, defaultModel: f.defaultModel()})
	for i := range results {
		r := &results[i]
		if !r.Valid {
			continue
		}
		l, err := f.resolveChain(r.File)
		if err != nil {
			continue
		}
		c := l.Chain
		if named := l.Named(r.Name); named != nil {
			c = named
		}
		modelErrs := engine.CheckModels(c)
		r.Errors = append(r.Errors, run.ModelErrors(modelErrs)...)
		r.Valid = len(r.Errors) == 0
		r.Warnings = append(r.Warnings, run.Warnings(c, modelErrs)...)
		r.Warnings = append(r.Warnings, run.PendingDefinitions(c, f.calls())...)
	}
	return nil
}

// checkCalls adds, to a file's load result, the errors of its chains'
// calls as positioned findings (catalog.CheckCalls).
func (f *factory) checkCalls(file string, l *chain.Loaded, err error) error {
	calls := f.calls()
	return catalog.CheckCalls(file, l, err, func(c *chain.Chain) error { return run.CheckCalls(c, calls) })
}
