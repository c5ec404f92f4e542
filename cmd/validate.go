package cmd

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

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
	f.modelWarnings(results)
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
// stop before starting.
func (f *factory) modelWarnings(results []text.Verdict) {
	models, err := f.registry()
	if err != nil {
		return
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
		r.Warnings = append(r.Warnings, run.Warnings(c, engine.CheckModels(c))...)
		r.Warnings = append(r.Warnings, run.PendingDefinitions(c, run.Resolvers{Chains: f.calledChain, Workflows: f.calledWorkflow, Scripts: f.calledScript})...)
	}
}

// checkCalls adds, to a file that loaded, the errors of its chains' chain
// and workflow steps (a missing callee, wrong inputs, a call cycle) as
// positioned findings. A file whose only errors are references to names
// nothing produces gets its calls checked too, so one validate says all
// that is wrong with it.
func (f *factory) checkCalls(file string, l *chain.Loaded, err error) error {
	if err != nil {
		return f.callsDespiteRefs(file, err)
	}
	if l == nil {
		return nil
	}
	for _, c := range l.Chains {
		if err := run.CheckCalls(c, run.Resolvers{Chains: f.calledChain, Workflows: f.calledWorkflow, Scripts: f.calledScript}); err != nil {
			return err
		}
	}
	return nil
}

// callsDespiteRefs adds to err, a file's validation errors, the errors of
// its calls, when the file loads once its unknown references are taken
// as text (they are then its only errors).
func (f *factory) callsDespiteRefs(file string, err error) error {
	var ve *chain.ValidationError
	if !errors.As(err, &ve) || file == "" {
		return err
	}
	lenient, lerr := chain.LoadFile(file, chain.Options{LenientVariables: true})
	if lerr != nil {
		return err
	}
	var calls *chain.ValidationError
	if !errors.As(f.checkCalls("", lenient, nil), &calls) {
		return err
	}
	all := append(slices.Clone(ve.Diagnostics), calls.Diagnostics...)
	slices.SortStableFunc(all, func(a, b chain.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return &chain.ValidationError{Diagnostics: all}
}
