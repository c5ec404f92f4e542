package cmd

import (
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/spf13/cobra"
)

// Commands is chainrun's command tree as a run builds it, for a program
// that writes its documentation from it (cmd/chainrun-man, the release's
// man pages); nothing runs.
func Commands() *cobra.Command { return newRootCmd(newFactory(iostreams.System())) }
