package cmd

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chainrun/chainrun/pkg/buildinfo"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
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
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.String("config", "", "config file (default ./chainrun.yaml, else $XDG_CONFIG_HOME/chainrun/config.yaml)")
	pf.String("chains-dir", "", "directory of chain files (default ./chains; env CHAINRUN_CHAINS_DIR)")
	pf.StringP("output", "o", "", "output format: text or json")
	// -v is --verbose wherever it is written (chainrun -v run x too);
	// --version has no short form
	pf.BoolP("verbose", "v", false, "stream each step's output to stderr, prefixed with its id (run, resume)")
	_ = root.MarkPersistentFlagFilename("config", "yaml", "yml")
	_ = root.MarkPersistentFlagDirname("chains-dir")
	_ = root.RegisterFlagCompletionFunc("output", fixed("text\tthe chain's output alone", "json\tone JSON object"))
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
		newApprovalsCmd(f),
		newResumeCmd(f),
		newInitCmd(f),
		newSchemaCmd(f),
		newMCPCmd(f),
		newWorkerCmd(f),
		newCancelCmd(f),
		newTestCmd(f),
	)
	defineFilters(root, f)
	return root
}

// completeNumbers makes a number never complete to a file name. It is
// done only when the shell asks for completions: walking every command's
// flags costs every other start a tenth of a millisecond.
func completeNumbers(root *cobra.Command, args []string) {
	if len(args) == 0 || (args[0] != cobra.ShellCompRequestCmd && args[0] != cobra.ShellCompNoDescRequestCmd) {
		return
	}
	for _, c := range root.Commands() {
		c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
			if fl.Value.Type() == "int" {
				_ = c.RegisterFlagCompletionFunc(fl.Name, cobra.NoFileCompletions)
			}
		})
	}
}

// exactArgs is cobra.ExactArgs with an error that maps to exit 2.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s (got %d arguments); see %s --help", cmd.Name(), what, len(args), commandLine(cmd))
		}
		return nil
	}
}

// flagError is a refused flag: exit 2, with the flag meant when one is
// close and the help of the command it was given to.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(fl *pflag.Flag) { names = append(names, "--"+fl.Name) })
		msg += chain.DidYouMean("--"+name, names)
	}
	return usagef("%s; see %s --help", msg, commandLine(cmd))
}

// commandLine is cmd as the user would type it again: chainrun as they
// ran it (./chainrun, say), then the command's path.
func commandLine(cmd *cobra.Command) string {
	_, path, _ := strings.Cut(cmd.CommandPath(), " ")
	return strings.TrimSpace(response.Command() + " " + path)
}
