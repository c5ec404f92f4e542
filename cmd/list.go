package cmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

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

type listedInput struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required"`
	Default     *string `json:"default,omitempty"`
}

type listedChain struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	File        string        `json:"file"`
	Inputs      []listedInput `json:"inputs"`
	Error       string        `json:"error,omitempty"`
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
	var out []listedChain
	for _, cf := range cat.Files {
		lc := listedChain{Name: cf.Name, File: cf.Path, Inputs: []listedInput{}}
		if cf.Err != nil {
			lc.Error = "invalid: run chainrun validate"
		} else {
			c := cf.Loaded.Chain
			lc.Description = c.Description
			for _, in := range c.Inputs {
				lc.Inputs = append(lc.Inputs, listedInput{Name: in.Name, Description: in.Description, Required: in.Required(), Default: in.Default})
			}
		}
		out = append(out, lc)
	}
	if format == "json" {
		enc := json.NewEncoder(f.io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(f.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDESCRIPTION\tINPUTS")
	for _, lc := range out {
		desc := lc.Description
		if lc.Error != "" {
			desc = "(" + lc.Error + ")"
		}
		var ins []string
		for _, in := range lc.Inputs {
			s := in.Name
			if !in.Required {
				s += "?"
			}
			ins = append(ins, s)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", lc.Name, firstLineOf(desc), strings.Join(ins, ", "))
	}
	return tw.Flush()
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
