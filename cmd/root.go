package cmd

import (
	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/buildinfo"
)

// version, commit and date are set at build time by the release
// (-ldflags "-X github.com/chainrun/chainrun/cmd.version=..."); without
// them, the binary's build information says (pkg/buildinfo).
var (
	version = "dev"
	commit  = ""
	date    = ""
)

func newRootCmd(f *factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "chainrun",
		Short: "Run YAML chains of commands, HTTP calls, transforms and LLM steps",
		Long: `chainrun runs YAML chains that mix deterministic steps (commands, HTTP
calls, transforms, files) with LLM steps. Steps start as soon as their
dependencies finish; every bad chain is rejected before anything runs.

Exit codes: 0 succeeded, 1 failed, 2 usage or validation error (nothing
ran), 3 paused at a decision point, 130 interrupted.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildinfo.Read(version, commit, date).Version,
	}
	root.SetVersionTemplate("chainrun {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	pf := root.PersistentFlags()
	pf.String("config", "", "config file (default ./chainrun.yaml, else $XDG_CONFIG_HOME/chainrun/config.yaml)")
	pf.String("chains-dir", "", "directory of chain files (default ./chains; env CHAINRUN_CHAINS_DIR)")
	pf.StringP("output", "o", "", "output format: text or json")
	bindFlag(f.v, keyConfig, pf.Lookup("config"))
	bindFlag(f.v, keyChainsDir, pf.Lookup("chains-dir"))
	bindFlag(f.v, keyOutput, pf.Lookup("output"))

	root.AddCommand(
		newRunCmd(f),
		newValidateCmd(f),
		newListCmd(f),
		newGraphCmd(f),
		newVersionCmd(f),
		newCacheCmd(f),
		newRunsCmd(f),
		newResumeCmd(f),
		newInitCmd(f),
		newSchemaCmd(f),
	)
	return root
}

// exactArgs is cobra.ExactArgs with an error that maps to exit 2.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s (got %d arguments); see chainrun %s --help", cmd.Name(), what, len(args), cmd.Name())
		}
		return nil
	}
}

// completeChainNames offers the chains of the chains dir.
func completeChainNames(f *factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cat, err := f.catalog()
		if err != nil {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return cat.Names(), cobra.ShellCompDirectiveNoFileComp
	}
}
