package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/store"
)

// Shell completion: every argument and every flag with a closed set of
// values completes them (described where a word helps); none falls back
// to file names unless it takes a file.

const noFiles = cobra.ShellCompDirectiveNoFileComp

// fixed completes a flag's values ("value\tdescription").
func fixed(values ...string) cobra.CompletionFunc { return cobra.FixedCompletions(values, noFiles) }

// completeChainNames offers the chains of the chains dir.
func completeChainNames(f *factory) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cat, err := f.catalog()
		if err != nil {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return cat.Names(), noFiles
	}
}

// completeInputKeys completes --input with the chosen chain's input names
// (name=), described, and after name= with the values its enum lists.
func completeInputKeys(f *factory) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c := f.argChain(args)
		if c == nil {
			return nil, noFiles
		}
		if strings.Contains(toComplete, "=") {
			return text.InputChoices(c, toComplete), noFiles
		}
		return text.InputChoices(c, toComplete), cobra.ShellCompDirectiveNoSpace | noFiles
	}
}

// firstArg is a command line's first argument, or "".
func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// argChain is the chain a command line names first, or nil.
func (f *factory) argChain(args []string) *chain.Chain {
	if len(args) == 0 {
		return nil
	}
	l, err := f.resolveChain(args[0])
	if err != nil {
		return nil
	}
	if named := l.Named(args[0]); named != nil {
		return named
	}
	return l.Chain
}

// completeRunIDs offers the saved runs, newest first, each described by
// its chain and status; with resumable only those resume can continue.
func completeRunIDs(f *factory, resumable bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		st, err := f.stateStore()
		if err != nil {
			return nil, noFiles
		}
		recs, _ := st.Newest(store.ChoiceFilter(f.runsUnder(), typed, resumable))
		return text.RunChoices(recs, resumable), noFiles | cobra.ShellCompDirectiveKeepOrder
	}
}

// completeSaved completes a flag of a command on a saved run (the first
// argument) with what choices(run) offers.
func completeSaved(f *factory, choices func(*store.Saved) []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		_, saved, err := f.savedRun(firstArg(args))
		if err != nil {
			return nil, noFiles
		}
		return choices(saved), noFiles
	}
}

// completeGrant offers the tools a run's agent steps can be granted: the
// built-in ones and the chain's own (run's chain, or a resumed run's).
func completeGrant(f *factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var c *chain.Chain
		if cmd.Name() != "resume" {
			c = f.argChain(args)
		} else if _, saved, err := f.savedRun(firstArg(args)); err == nil {
			c, _ = saved.Chain(chain.Options{LenientVariables: true}, false)
		}
		return given.Tools(c), noFiles
	}
}
