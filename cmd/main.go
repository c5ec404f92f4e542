package cmd

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// Main runs chainrun with the process's arguments and streams and returns
// the exit code. SIGINT and SIGTERM cancel the command's context.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Execute(ctx, iostreams.System(), os.Args[1:])
}

// Execute runs one command line against the given streams, for Main and
// for in-process tests.
func Execute(ctx context.Context, io *iostreams.IOStreams, args []string) int {
	f := newFactory(io)
	root := newRootCmd(f)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	err := root.ExecuteContext(ctx)
	return reportError(io, err)
}
