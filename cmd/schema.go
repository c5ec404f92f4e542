package cmd

import (
	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/render"
)

func newSchemaCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the chain file format, for editors",
		Long: `Print a JSON Schema (draft-07, definitions inlined) of the chain file
format, with a description on every field. Save it in the project's
directory (beside chains/) and point your editor's YAML language server at
it from the first line of each chain file (the path is relative to that
file):

  chainrun schema > chain.schema.json
  # yaml-language-server: $schema=../chain.schema.json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			return render.PrintJSON(f.io.Out, load.JSONSchema())
		},
	}
}
