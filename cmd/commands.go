package cmd

import (
	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// Commands is chainrun's command tree as a run builds it, with the help
// and completion commands cobra adds when it runs, for a program that
// writes its documentation from it (cmd/chainrun-man, the release's man
// pages); nothing runs.
func Commands() *cobra.Command {
	root := newRootCmd(newFactory(iostreams.System()))
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return root
}
