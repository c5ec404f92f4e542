package cmd

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/buildinfo"
)

type versionOptions struct {
	f *factory
}

func newVersionCmd(f *factory) *cobra.Command {
	opts := &versionOptions{f: f}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of chainrun",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runVersion(opts) },
	}
}

func runVersion(opts *versionOptions) error {
	format, err := opts.f.format()
	if err != nil {
		return err
	}
	out, b := opts.f.io.Out, buildinfo.Read(version, commit, date)
	if format == "json" {
		return json.NewEncoder(out).Encode(map[string]any{
			"version": b.Version, "commit": b.Commit, "date": b.Date, "modified": b.Modified, "go": runtime.Version(),
			"platform": runtime.GOOS + "/" + runtime.GOARCH,
		})
	}
	line := "chainrun " + b.Version
	if b.Commit != "" {
		line += " (" + b.Commit
		if b.Modified {
			line += "+changes"
		}
		if b.Date != "" {
			line += ", " + b.Date
		}
		line += ")"
	}
	_, err = fmt.Fprintln(out, line)
	return err
}
