package cmd

import (
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/text"
	"github.com/spf13/cobra"
)

type listOptions struct {
	f *factory
}

func newListCmd(f *factory) *cobra.Command {
	opts := &listOptions{f: f}
	return &cobra.Command{
		Use:   "list",
		Short: "List the chains: name, description, inputs",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runList(opts) },
	}
}

func runList(opts *listOptions) error {
	f := opts.f
	format, err := f.format()
	if err != nil {
		return err
	}
	cat, err := f.catalog()
	if err != nil {
		return err
	}
	out := text.ListedChains(cat)
	if format == "json" {
		return render.PrintJSON(f.io.Out, out)
	}
	return text.Chains(f.io.Out, out)
}
