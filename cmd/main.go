package cmd

import (
	"context"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render/github"
)

// stopSignals end a run as an interrupt does: the steps' process groups
// are stopped, the run is saved as interrupted, and chainrun exits 130; a
// second one kills the process groups at once. SIGHUP is a closed
// terminal or a dropped SSH session; SIGQUIT would otherwise kill
// chainrun with a goroutine dump, orphaning its steps.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// Main runs chainrun with the process's arguments and streams and returns
// the exit code. A stop signal, or a reader of stdout or stderr that goes
// away (… | head, a closed log pipe), cancels the command's context.
func Main() int {
	ctx, stop := interrupt.Watch(context.Background(), stopSignals...)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// a write to a closed stdout or stderr then fails, and
	// iostreams.Guard turns that into a cancel
	defer interrupt.IgnorePipe()()
	return Execute(ctx, iostreams.System().Guard(cancel), os.Args[1:])
}

// Execute runs one command line against the given streams, for Main and
// for in-process tests.
func Execute(ctx context.Context, io *iostreams.IOStreams, args []string) int {
	return execute(ctx, newFactory(io), args)
}

// execute runs one command line with the given factory (tests give theirs).
func execute(ctx context.Context, f *factory, args []string) int {
	io := f.io
	defer github.GuardStreams(os.Getenv, &io.Out, &io.ErrOut)()
	root := newRootCmd(f)
	completeNumbers(root, args)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	pageHelp(root, io)
	commandRan := markRuns(root)
	err := root.ExecuteContext(ctx)
	code := reportError(io, err, *commandRan, err != nil && (f.held != nil || wantsJSON(f, args)))
	code = finishFilter(ctx, f, code)
	f.traces.Close(code)
	return code
}

// pageHelp shows help through the user's pager when stdout is a terminal
// (iostreams.StartPager).
func pageHelp(root *cobra.Command, io *iostreams.IOStreams) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		defer io.StartPager(iostreams.PagerCommand(os.LookupEnv))()
		c.SetOut(io.Out)
		help(c, args)
	})
}

// markRuns wraps every command's RunE so that an error can be told apart
// from cobra's own refusal of the command line, which comes before any
// command runs.
func markRuns(root *cobra.Command) *bool {
	ran := new(bool)
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				*ran = true
				return run(cmd, args)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return ran
}
