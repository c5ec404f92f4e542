package cmd

import (
	"strings"

	"github.com/spf13/cobra"
)

// completeInputKeys completes --input with the chosen chain's input names
// (name=), described, so a shell offers what the chain takes.
func completeInputKeys(f *factory) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 || strings.Contains(toComplete, "=") {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		l, err := f.resolveChain(args[0])
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		c := l.Chain
		if named := l.Named(args[0]); named != nil {
			c = named
		}
		var out []cobra.Completion
		for _, in := range c.Inputs {
			desc := in.Description
			if !in.Required() {
				desc = strings.TrimSpace(desc + " (optional)")
			}
			out = append(out, cobra.CompletionWithDesc(in.Name+"=", desc))
		}
		return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
}
