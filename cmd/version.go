package cmd

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
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
	out := opts.f.io.Out
	if format == "json" {
		return json.NewEncoder(out).Encode(map[string]string{
			"version": version, "commit": commit, "date": date, "go": runtime.Version(),
			"platform": runtime.GOOS + "/" + runtime.GOARCH,
		})
	}
	line := "chainrun " + version
	if commit != "" {
		line += " (" + commit
		if date != "" {
			line += ", " + date
		}
		line += ")"
	}
	_, err = fmt.Fprintln(out, line)
	return err
}
