package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/render/jsonfilter"
)

// jsonCommands are the commands whose -o json output --jq and --template
// filter.
var jsonCommands = []string{"run", "resume", "runs", "runs show", "runs prune", "list", "validate", "approvals", "version", "cache stats", "schema", "test"}

// defineFilters gives each JSON command --jq and --template: compiled
// before the command starts (a broken one is exit 2, nothing ran), the
// filter holds stdout and prints what it makes of the JSON once the
// command ends (finishFilter).
func defineFilters(root *cobra.Command, f *factory) {
	var jq, tmpl string
	for _, name := range jsonCommands {
		c, _, err := root.Find(strings.Fields(name))
		if err != nil || c.CommandPath() != "chainrun "+name {
			continue
		}
		c.Flags().StringVar(&jq, "jq", "", "filter the JSON output with a jq expression; strings print raw (implies -o json)")
		c.Flags().StringVar(&tmpl, "template", "", "format the JSON output with a Go template (implies -o json; see docs/cli.md)")
		run := c.RunE
		c.RunE = func(cmd *cobra.Command, args []string) error {
			filter, err := jsonfilter.New(jsonfilter.Options{JQ: jq, Template: tmpl, Pretty: f.io.IsStdoutTTY(), Environ: os.Environ})
			if err != nil {
				return err
			}
			if filter != nil {
				if out := cmd.Flags().Lookup("output"); out.Changed && out.Value.String() != "json" {
					return usagef("%s filters the JSON output: leave out -o %s", filter.Flag(), out.Value)
				}
				if g := cmd.Flags().Lookup("gantt"); g != nil && g.Changed {
					return usagef("%s filters JSON: --gantt prints a timeline", filter.Flag())
				}
				_ = cmd.Flags().Set("output", "json")
				f.held = filter.Hold(f.io.Out)
				f.io.Out = f.held
			}
			return run(cmd, args)
		}
	}
}

// finishFilter prints what the filter makes of the command's JSON, under
// ctx (a stop signal ends a filter that does not), and returns the exit
// code: the command's, but 1 when the filter failed (or spent its
// budget) on a command that had succeeded, since a script reading the
// filter's output got none; 130 when a stop signal ended it. A failed,
// paused or interrupted run keeps its own code, the filter's failure said
// on stderr.
func finishFilter(ctx context.Context, f *factory, code int) int {
	if f.held == nil {
		return code
	}
	f.io.Out = f.held.Out()
	ctx, release := interrupt.AfterStop(ctx) // an interrupted run's result is still printed
	defer release()
	err := f.held.Flush(ctx)
	switch {
	case err == nil, interrupt.PipeClosed(err):
		return code
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(f.io.ErrOut, "chainrun: "+f.held.Flag()+": interrupted")
		return exitInterrupted
	}
	fmt.Fprintln(f.io.ErrOut, "chainrun: "+err.Error())
	if code == exitOK {
		return exitFailed
	}
	return code
}
